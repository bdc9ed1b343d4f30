"""The storage contract suite on a real Redis."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from service.adapters.store.redis_store import RedisEventStore
from service.shared.settings import Settings
from tests.unit.adapters.notifications import Notifications, subscribed
from tests.unit.adapters.runner_contract import RunnerContract

pytestmark = [pytest.mark.anyio, pytest.mark.redis]


class TestRedisEventStoreOnRealRedis(RunnerContract):
    @pytest.fixture
    async def store(self, core_settings: Settings) -> AsyncIterator[RedisEventStore]:
        client = Redis.from_url(core_settings.redis_url)
        yield RedisEventStore(client, prefix=core_settings.key_prefix)
        await client.aclose()

    @pytest.fixture
    async def notifications(self, core_settings: Settings) -> AsyncIterator[Notifications]:
        client = Redis.from_url(core_settings.redis_url)
        listener = await subscribed(client, core_settings.key_prefix)
        yield listener
        await listener.close()
        await client.aclose()
