"""Fixtures of the core unit tests."""

from __future__ import annotations

import fakeredis
import pytest

from service.adapters.store.redis_store import RedisEventStore


@pytest.fixture
def store(fake_redis: fakeredis.aioredis.FakeRedis) -> RedisEventStore:
    """The Redis adapter over a fakeredis server of the test's own."""
    return RedisEventStore(fake_redis, prefix="t:")
