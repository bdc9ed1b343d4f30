"""Fixtures of the history unit tests: the race game registered, a store of each kind."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import fakeredis
import pytest

from domain.games import unregister
from service.store.memory import InMemoryEventStore
from service.store.protocol import EventStore
from service.store.redis_events import RedisEventStore
from tests.fakes.race import RaceGame, register_race

PREFIX = "hist:"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def race() -> Iterator[RaceGame]:
    game = register_race()
    yield game
    unregister(game.name)


@pytest.fixture
async def fake_redis() -> AsyncIterator[fakeredis.aioredis.FakeRedis]:
    # A server of its own per test: nothing leaks between tests.
    client = fakeredis.aioredis.FakeRedis(server=fakeredis.FakeServer())
    yield client
    await client.aclose()


@pytest.fixture(params=["memory", "fakeredis"])
def store(request: pytest.FixtureRequest, fake_redis: fakeredis.aioredis.FakeRedis) -> EventStore:
    """Each EventStore adapter the unit tests run on."""
    if request.param == "memory":
        return InMemoryEventStore()
    return RedisEventStore(fake_redis, PREFIX)


@pytest.fixture
def redis_store(fake_redis: fakeredis.aioredis.FakeRedis) -> RedisEventStore:
    """The Redis adapter over fakeredis (for tests that edit what Redis holds)."""
    return RedisEventStore(fake_redis, PREFIX)
