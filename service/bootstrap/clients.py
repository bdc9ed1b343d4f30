"""The clients and stores every process role shares: the event Redis (one, a cluster, or Skald's own
embedded one), the queue's Redis, the event store, the drain scheduler and the archive."""

from __future__ import annotations

from pathlib import Path

from redis import Redis as SyncRedis
from redis.asyncio import Redis

from service.adapters.archive.directory_archive import DirectoryArchive
from service.adapters.archive.postgres_archive import PostgresArchive
from service.adapters.embedded_redis import EmbeddedRedis
from service.adapters.redis_clients import POOL_WAIT_S, event_redis
from service.adapters.rq_scheduler import RQScheduler
from service.adapters.store.redis_store import RedisEventStore, redis_version_problem_at
from service.adapters.store.replica_wait import ReplicaWait
from service.adapters.store.scripts import Scripts
from service.core.ports.archive import ArchiveStore
from service.core.ports.records import RunnerLimits
from service.history.archived_games import ArchiveBackedStore
from service.shared.settings import Settings


def runner_limits(settings: Settings) -> RunnerLimits:
    """How many drain runners may be scheduled at once, and how long a slot lasts unrenewed."""
    return RunnerLimits(
        settings.max_runners, int(settings.runner_slot_ttl_s * 1000), settings.drain_shards
    )


def event_client(settings: Settings) -> Redis:
    """A client of the event data: one Redis, or a Redis Cluster with `redis_cluster`."""
    if not settings.redis_url:
        raise ValueError("no Redis configured: set SKALD_REDIS_URL")
    if settings.redis_cluster and not settings.queue_url:
        raise ValueError("on a Redis Cluster the RQ queue needs its own Redis: set SKALD_QUEUE_URL")
    # On a cluster, past `redis_connections` calls in flight a call waits for a turn, where
    # redis-py's own pool failed it at once (a 503 past about 100 requests per master).
    return event_redis(
        settings.redis_url,
        settings.redis_cluster,
        settings.redis_connections,
        POOL_WAIT_S,
        decode_responses=False,
    )


def embedded_redis(settings: Settings) -> EmbeddedRedis:
    """A redis-server of Skald's own over the data directory (started as a context manager),
    when no Redis is configured."""
    return EmbeddedRedis(settings.data_dir)


def queue_client(settings: Settings) -> SyncRedis:
    """A client of the RQ queue's Redis (synchronous, as RQ is)."""
    return SyncRedis.from_url(settings.queue_redis_url)


def replica_wait(settings: Settings) -> ReplicaWait:
    """How many replicas must hold a command before it is acknowledged."""
    return ReplicaWait(settings.wait_replicas, settings.wait_timeout_ms)


def store(redis: Redis, settings: Settings, scripts: Scripts | None = None) -> RedisEventStore:
    """The event store on `redis`, under the settings' key prefix and runner limits."""
    return RedisEventStore(
        redis, settings.key_prefix, scripts, runner_limits(settings), replica_wait(settings)
    )


def scheduler(queue_redis: SyncRedis, settings: Settings) -> RQScheduler:
    """The RQ scheduler of drain runners on the queue Redis."""
    return RQScheduler(
        queue_redis, settings.queue_name, settings.key_prefix, settings.job_timeout_s
    )


def archive(settings: Settings) -> ArchiveStore:
    """Where finished games go once they leave Redis: PostgreSQL at `archive_url`, else a
    directory under the data directory."""
    if settings.archive_url:
        return PostgresArchive(settings.archive_url)
    return DirectoryArchive(Path(settings.data_dir) / "archive")


def archived_reads(
    events: RedisEventStore, settings: Settings, archive_store: ArchiveStore | None = None
) -> ArchiveBackedStore[RedisEventStore]:
    """The store that reads games from Redis and, once archived, from the archive."""
    return ArchiveBackedStore(events, archive_store or archive(settings))


def redis_problem(settings: Settings) -> str | None:
    """Why the configured event Redis cannot serve Skald; None when it can, or when it does
    not answer yet (the worker then waits for it like after any outage)."""
    return redis_version_problem_at(settings.redis_url)
