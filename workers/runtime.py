"""What a worker process keeps between jobs: one event loop, its Redis clients, the LRU of
game sessions, the drain runner. Jobs are synchronous RQ functions; each runs its coroutine
on this loop, so connections and cached game states survive from one job to the next.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time

from service import bootstrap
from service.core.notifying.projector import ProjectReport
from service.core.pipeline.deadlines import DeadlineReport, fire_due
from service.core.pipeline.open_rooms import expire_open_rooms
from service.core.pipeline.runner import RunnerReport
from service.core.pipeline.sweep import SweepReport, sweep
from service.core.ratings.ledger import LedgerReport
from service.shared.settings import Settings

DEADLINE_PAGE = 1000  # due deadlines read per page
DEADLINE_PAGES = 20  # pages at most per sweep
OPEN_ROOMS_PAGE = 100  # expired open games cancelled per sweep at most


class WorkerRuntime:
    """Clients and caches of one worker thread (not shared between threads)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.runner = asyncio.Runner()
        # Async clients connect lazily, on the runner's loop where every job runs.
        graph = bootstrap.worker_graph(settings)
        self.redis = graph.redis
        self.queue_redis = graph.queue_redis
        self.store = graph.store
        self.pending = graph.pending
        self.deadlines = graph.deadlines
        self.scheduler = graph.scheduler
        self.drainer = graph.drainer
        self.drain_runner = graph.runner
        self.ledger = graph.ledger
        self.notify_projector = graph.notify_projector
        self.open_rooms = graph.open_rooms
        self._open_rooms_backfilled = False
        self._next_stranded_scan = 0.0

    def run_drains(self, job_id: str) -> RunnerReport:
        """Be the drain runner `job_id`: drain ready games until none is left or time is up."""
        return self.runner.run(self.drain_runner.run(job_id))

    def sweep(self) -> SweepReport:
        """Wake games whose runner was lost (on a cluster, now and then also those a submit
        left in no index: marked pending, they are woken by the next sweeps)."""
        if self.store.cluster and time.monotonic() >= self._next_stranded_scan:
            self._next_stranded_scan = time.monotonic() + self.settings.stranded_scan_s
            self.runner.run(self._mark_stranded())
        return self.runner.run(
            sweep(
                self.store,
                self.pending,
                self.scheduler,
                grace_ms=int(self.settings.sweep_grace_s * 1000),
                visit=self.notify_projector.catch_up,
            )
        )

    async def _mark_stranded(self) -> None:
        for game_id in await self.store.stranded_games():
            await self.pending.mark(game_id)

    def fire_deadlines(self) -> DeadlineReport:
        """Queue a timeout for every turn deadline passed: page after page while pages come
        back full (a backlog is fired in one sweep, not a page per sweep), at most
        `DEADLINE_PAGES` pages (deferred deadlines stay in the set and fill pages)."""
        total = DeadlineReport()
        for _ in range(DEADLINE_PAGES):
            report = self.runner.run(
                fire_due(self.deadlines, self.store, self.scheduler, limit=DEADLINE_PAGE)
            )
            total.due += report.due
            total.fired += report.fired
            if report.due < DEADLINE_PAGE:
                break
        return total

    def expire_open_rooms(self) -> list[str]:
        """Cancel the games that waited for their players longer than `open_game_ttl_s`."""
        ttl_ms = int(self.settings.open_game_ttl_s * 1000)
        if not self._open_rooms_backfilled:  # games opened before the index, once
            self.runner.run(self.open_rooms.backfill())
            self._open_rooms_backfilled = True
        return self.runner.run(
            expire_open_rooms(self.open_rooms, self.store, self.scheduler, ttl_ms, OPEN_ROOMS_PAGE)
        )

    def catch_up_ratings(self) -> LedgerReport:
        """Log the finished games no worker logged (docs/ratings.md), and fold the ratings
        (unless another worker claimed this interval's catch-up)."""
        owner = f"{os.getpid()}:{threading.get_ident()}"
        return self.runner.run(
            bootstrap.catch_up_ratings(self.redis, self.settings, self.ledger, owner)
        )

    def project_notifications(self) -> ProjectReport:
        """Turn marked games' new events into players' notifications; send due reminders."""
        return self.runner.run(self.notify_projector.step())

    def close(self) -> None:
        """Close the clients and the loop."""
        self.runner.run(self.redis.aclose())
        self.runner.close()
        self.queue_redis.close()
