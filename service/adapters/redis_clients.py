"""The event Redis: one server, or a Redis Cluster (`SKALD_REDIS_CLUSTER=1`).

Both are handed around typed as `redis.asyncio.Redis`: redis-py's `RedisCluster` answers the
same commands, pipelines, scripts and SCAN (over every master), and the few places that
must act differently on a cluster (the drain indexes' hash tag, sharded pub/sub, WAIT) ask
`is_cluster`.
"""

from __future__ import annotations

from typing import Any, cast

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster


def event_redis(url: str, cluster: bool, **options: Any) -> Redis:
    """A client of the event data at `url` (on a cluster: any node, the others are found)."""
    if cluster:
        return cast(Redis, RedisCluster.from_url(url, **options))
    return Redis.from_url(url, **options)


def is_cluster(redis: object) -> bool:
    """Whether `redis` is a Redis Cluster client."""
    return isinstance(redis, RedisCluster)
