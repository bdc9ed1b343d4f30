"""Fixtures of the history unit tests: the race game registered, the store."""

from __future__ import annotations

import fakeredis
import pytest

from service.adapters.store.redis_store import RedisEventStore
from service.core.ports.event_store import EventStore
from tests.fakes.race import RaceGame

PREFIX = "hist:"


@pytest.fixture(autouse=True)
def race_registered(race: RaceGame) -> RaceGame:
    """Every history test may play the race game."""
    return race


@pytest.fixture
def store(fake_redis: fakeredis.aioredis.FakeRedis) -> EventStore:
    """The store the history unit tests run on: the Redis adapter over fakeredis (a real
    Redis in tests/integration/history)."""
    return RedisEventStore(fake_redis, PREFIX)


@pytest.fixture
def redis_store(fake_redis: fakeredis.aioredis.FakeRedis) -> RedisEventStore:
    """The Redis adapter over fakeredis (for tests that edit what Redis holds)."""
    return RedisEventStore(fake_redis, PREFIX)
