"""The sweeper: re-queue games whose commands wait with no drain job alive (issue 7).

A drain job can be lost with its worker (SIGKILL), or never enqueued (the API process died
between raising the drain flag and enqueueing). Submissions mark their game in the pending
index; the sweeper visits games marked more than `grace_ms` ago:
- nothing waits past the cursor: forget the game (unless it was marked again meanwhile);
- a worker holds the lease, or the named job is still queued: leave it;
- the flag names no job, a job RQ no longer has, one that failed, or one RQ calls queued
  but that is in no queue (its worker died as it took it): re-queue now;
- otherwise (the job "started" but nobody holds the lease) re-queue once the oldest waiting
  command is older than `stale_ms`: its worker is gone.
A spare drain job is harmless: the lease lets one at a time apply, the others exit.
"""

from __future__ import annotations

from dataclasses import dataclass

import structlog

from service.pipeline.schedule import LOST, DrainScheduler
from service.store.protocol import EventStore
from service.store.side import PendingIndex

log = structlog.get_logger("skald.sweeper")

ALIVE_STATUSES = frozenset({"queued", "deferred", "scheduled"})
DEAD_STATUSES = frozenset({"failed", "stopped", "canceled", "finished", LOST})


@dataclass
class SweepReport:
    """What one sweep saw and did."""

    visited: int = 0
    forgotten: int = 0
    requeued: int = 0


async def sweep(
    store: EventStore,
    pending: PendingIndex,
    scheduler: DrainScheduler,
    grace_ms: int,
    stale_ms: int,
    limit: int = 1000,
) -> SweepReport:
    """Visit games marked pending before `grace_ms` ago; re-queue lost drains."""
    report = SweepReport()
    now = await pending.now_ms()
    for game_id, mark in await pending.marked_before(now - grace_ms, limit):
        report.visited += 1
        head = await store.head(game_id)
        waiting = await store.inbox(game_id, head.cursor, 1) if head is not None else []
        if not waiting:
            await pending.forget(game_id, mark)
            report.forgotten += 1
            continue
        if await store.lease_held(game_id):
            continue
        job_id = await store.drain_flag(game_id)
        status = await scheduler.job_status(job_id) if job_id is not None else None
        if status in ALIVE_STATUSES:
            continue
        lost = job_id is None or status is None or status in DEAD_STATUSES
        if not lost and now - waiting[0].received_ms < stale_ms:
            continue
        new_job_id = scheduler.new_job_id(game_id)
        await store.set_drain_flag(game_id, new_job_id)
        await scheduler.schedule(game_id, new_job_id)
        report.requeued += 1
        log.warning("drain_requeued", game_id=game_id, lost_job_id=job_id, lost_job_status=status)
    return report
