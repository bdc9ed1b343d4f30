"""Fixtures of the history unit tests: the race game registered, a store of each kind."""

from __future__ import annotations

import fakeredis
import pytest

from service.adapters.store.memory import InMemoryEventStore
from service.adapters.store.ports import EventStore
from service.adapters.store.redis_store import RedisEventStore
from tests.fakes.race import RaceGame

PREFIX = "hist:"


@pytest.fixture(autouse=True)
def race_registered(race: RaceGame) -> RaceGame:
    """Every history test may play the race game."""
    return race


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
