"""History tests on the real Redis: each test has its own key prefix (see ../conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from service.adapters.store.redis_store import RedisEventStore
from service.shared.settings import Settings
from tests.fakes.race import RaceGame


@pytest.fixture(autouse=True)
def race_registered(race: RaceGame) -> RaceGame:
    """Every history test may play the race game."""
    return race


@pytest.fixture
async def real_store(core_settings: Settings) -> AsyncIterator[RedisEventStore]:
    """The Redis event store on the real server, under this test's own prefix."""
    client = Redis.from_url(core_settings.redis_url, decode_responses=False)
    yield RedisEventStore(client, core_settings.key_prefix)
    await client.aclose()
