"""Fixtures of the service unit tests: asyncio via anyio, the fake race game, fakeredis."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import fakeredis
import pytest

from domain.games import unregister
from tests.fakes.race import RaceGame, register_race


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
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
