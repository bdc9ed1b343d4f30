"""The storage contract on the Redis adapter over fakeredis.

The same suite runs on a real Redis in tests/integration/test_store_redis.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import fakeredis
import pytest

from service.adapters.store.redis_store import RedisEventStore
from service.core.ports.event_store import EventStore
from tests.unit.adapters.notifications import (
    Notifications,
    subscribed,
)
from tests.unit.adapters.runner_contract import RunnerContract

pytestmark = pytest.mark.anyio


class TestRedisEventStoreOnFakeRedis(RunnerContract):
    @pytest.fixture
    def store(self, fake_redis: fakeredis.aioredis.FakeRedis) -> RedisEventStore:
        return RedisEventStore(fake_redis, prefix="t:")

    @pytest.fixture
    async def notifications(
        self, fake_redis: fakeredis.aioredis.FakeRedis
    ) -> AsyncIterator[Notifications]:
        listener = await subscribed(fake_redis, "t:")
        yield listener
        await listener.close()

    async def test_a_commit_that_waits_is_written_first_and_wakes_for_the_next_game(
        self, store: EventStore
    ) -> None:
        pytest.skip(
            "fakeredis runs a pipeline's commands only once its blocking BZMPOP has returned; "
            "a real Redis runs them in order (tests/integration/test_store_redis.py)"
        )
