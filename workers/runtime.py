"""What a worker process keeps between jobs: one event loop, its Redis clients, the LRU of
game sessions, the drain runner. Jobs are synchronous RQ functions; each runs its coroutine
on this loop, so connections and cached game states survive from one job to the next.
"""

from __future__ import annotations

import asyncio

from redis import Redis as SyncRedis
from redis.asyncio import Redis

from service.notify import Publisher
from service.pipeline.drain import Drainer
from service.pipeline.runner import DrainRunner, RunnerReport
from service.pipeline.schedule import RQScheduler
from service.pipeline.session import SessionCache
from service.pipeline.sweep import SweepReport, sweep
from service.settings import Settings
from service.store.redis_events import RedisEventStore
from service.store.scripts import Scripts
from service.store.side import Lobby, PendingIndex, Views


class WorkerRuntime:
    """Clients and caches of one worker thread (not shared between threads)."""

    def __init__(self, settings: Settings) -> None:
        if not settings.redis_url:
            raise ValueError("no Redis configured: set SKALD_REDIS_URL")
        self.settings = settings
        self.runner = asyncio.Runner()
        # Async clients connect lazily, on the runner's loop where every job runs.
        self.redis = Redis.from_url(settings.redis_url, decode_responses=False)
        self.queue_redis = SyncRedis.from_url(settings.queue_redis_url)
        prefix = settings.key_prefix
        scripts = Scripts(self.redis)
        self.store = RedisEventStore(self.redis, prefix, scripts, settings.runner_limits)
        self.pending = PendingIndex(self.redis, prefix, scripts)
        self.scheduler = RQScheduler(
            self.queue_redis, settings.queue_name, prefix, settings.job_timeout_s
        )
        self.drainer = Drainer(
            store=self.store,
            views=Views(self.redis, prefix, scripts),
            lobby=Lobby(self.redis, prefix),
            publisher=Publisher(self.redis, prefix),
            cache=SessionCache(settings.state_cache_size),
            batch_size=settings.batch_size,
            lease_ttl_ms=int(settings.lease_ttl_s * 1000),
        )

        self.drain_runner = DrainRunner.configured(
            settings, self.store, self.drainer, self.scheduler
        )

    def run_drains(self, job_id: str) -> RunnerReport:
        """Be the drain runner `job_id`: drain ready games until none is left or time is up."""
        return self.runner.run(self.drain_runner.run(job_id))

    def sweep(self) -> SweepReport:
        """Wake games whose runner was lost."""
        return self.runner.run(
            sweep(
                self.store,
                self.pending,
                self.scheduler,
                grace_ms=int(self.settings.sweep_grace_s * 1000),
            )
        )

    def close(self) -> None:
        """Close the clients and the loop."""
        self.runner.run(self.redis.aclose())
        self.runner.close()
        self.queue_redis.close()
