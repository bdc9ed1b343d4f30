"""The storage contract on the in-memory store and on the Redis adapter over fakeredis.

The same suite runs on a real Redis in tests/integration/test_store_redis.py.
"""

from __future__ import annotations

import fakeredis
import pytest

from service.store.memory import InMemoryEventStore
from service.store.redis_events import RedisEventStore
from tests.unit.service.runner_contract import RunnerContract

pytestmark = pytest.mark.anyio


class TestInMemoryEventStore(RunnerContract):
    @pytest.fixture
    def store(self) -> InMemoryEventStore:
        return InMemoryEventStore()


class TestRedisEventStoreOnFakeRedis(RunnerContract):
    @pytest.fixture
    def store(self, fake_redis: fakeredis.aioredis.FakeRedis) -> RedisEventStore:
        return RedisEventStore(fake_redis, prefix="t:")
