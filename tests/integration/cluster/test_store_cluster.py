"""The storage and runner contract suites on a real Redis Cluster: every script touches one
slot (a CROSSSLOT error fails the test), ready marks and runner slots behave as on one Redis,
and a commit's notification arrives over sharded pub/sub."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from service.adapters.notifications import Notifier
from service.adapters.redis_clients import event_redis
from service.adapters.store.redis_store import RedisEventStore
from service.core.ports.notifier import Update
from tests.cluster.local_cluster import LocalCluster
from tests.unit.adapters.runner_contract import RunnerContract

pytestmark = [pytest.mark.anyio]

# The games the contract suites play (their ids are fixed).
CONTRACT_GAMES = ("g1", "g2", "g3")
_QUIET_S = 0.3


class ShardedNotifications:
    """The announcements of the contract's games, heard through the API's own Notifier."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self._notifier = Notifier(redis, prefix)
        self._stack = contextlib.AsyncExitStack()
        self._queues: dict[str, asyncio.Queue[Update]] = {}

    async def start(self) -> None:
        for game_id in CONTRACT_GAMES:
            listening = self._notifier.listen(game_id)
            self._queues[game_id] = await self._stack.enter_async_context(listening)

    async def heard(self) -> list[tuple[str, int]]:
        heard: list[tuple[str, int]] = []
        await asyncio.sleep(_QUIET_S)
        for game_id, queue in self._queues.items():
            while not queue.empty():
                heard.append((game_id, queue.get_nowait().version))
        return heard

    async def close(self) -> None:
        await self._stack.aclose()
        await self._notifier.close()


class TestRedisEventStoreOnACluster(RunnerContract):
    @pytest.fixture
    def prefix(self) -> str:
        return f"it-cluster-{uuid.uuid4().hex[:8]}:"

    @pytest.fixture
    async def store(
        self, redis_cluster: LocalCluster, prefix: str
    ) -> AsyncIterator[RedisEventStore]:
        client = event_redis(redis_cluster.url, cluster=True)
        store = RedisEventStore(client, prefix=prefix)
        assert store.cluster
        yield store
        await client.aclose()

    @pytest.fixture
    async def notifications(
        self, redis_cluster: LocalCluster, prefix: str
    ) -> AsyncIterator[ShardedNotifications]:
        client = event_redis(redis_cluster.url, cluster=True)
        listener = ShardedNotifications(client, prefix)
        await listener.start()
        yield listener
        await listener.close()
        await client.aclose()
