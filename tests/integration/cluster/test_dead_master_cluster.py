"""While a dead master is not yet replaced, the other masters' slots are still served.

A master is SIGKILLed; its replica takes over only after the node timeout (long here, so the
test runs before it). Meanwhile a pipeline that reached the dead master makes redis-py's
cluster client drop its slot map and reload it. redis-py also reloaded its table of commands
(COMMAND) from the default node at every reload, and the dead master, still listed, could be
that node: every reload failed, so did every call, the healthy masters' too (503s for
several seconds of every failover). The table is loaded once now.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import redis.exceptions
from redis.asyncio import Redis
from redis.crc import key_slot

from service.adapters.redis_clients import event_redis
from tests.cluster.local_cluster import LocalCluster

pytestmark = [pytest.mark.anyio, pytest.mark.redis]


@pytest.fixture
def slow_failover(tmp_path: Path) -> Iterator[LocalCluster]:
    """A cluster whose replicas take over only after 30 s."""
    own = LocalCluster(tmp_path / "cluster", node_timeout_ms=30_000)
    try:
        yield own.start()
    finally:
        own.stop()


@pytest.fixture
async def client(slow_failover: LocalCluster) -> AsyncIterator[Redis]:
    client = event_redis(slow_failover.url, cluster=True)
    yield client
    await client.aclose()


def _master_of(cluster: LocalCluster, key: str) -> int:
    return _master_of_slot(cluster, key_slot(key.encode()))


def _master_of_slot(cluster: LocalCluster, slot: int) -> int:
    for port, ranges in cluster.masters().items():
        if any(start <= slot <= end for start, end in ranges):
            return port
    raise AssertionError(f"no master serves slot {slot}")


async def test_the_other_masters_are_served_while_one_is_dead(
    slow_failover: LocalCluster, client: Redis
) -> None:
    # Given keys on every master
    keys = [f"dead-master-{n}" for n in range(30)]
    for key in keys:
        await client.set(key, key)
    # (the master of slot 0: the first listed by CLUSTER SLOTS, so the default node of a
    # client that loads its slot map afresh)
    dead = _master_of_slot(slow_failover, 0)
    alive = [key for key in keys if _master_of(slow_failover, key) != dead]
    lost = next(key for key in keys if _master_of(slow_failover, key) == dead)

    # When that master is killed and a pipeline reaches it (the client reloads its slot map)
    slow_failover.kill(dead)
    with pytest.raises(redis.exceptions.ConnectionError):
        async with client.pipeline(transaction=False) as pipe:
            pipe.get(lost)
            await pipe.execute()

    # Then the keys of the other masters are still read
    assert [await client.get(key) for key in alive] == [key.encode() for key in alive]
