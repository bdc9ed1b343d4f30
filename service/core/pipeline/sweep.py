"""The sweeper: put back games whose commands wait with no runner coming.

A runner can die with its worker (SIGKILL) holding a game it took off the ready set, or
never be enqueued (the API process died between claiming its slot and enqueueing it).
Submissions mark their game in the pending index; the sweeper visits games marked more than
`grace_ms` ago:
- nothing waits past the cursor: forget the game (unless it was marked again meanwhile);
- a worker holds the lease: leave it (the holder puts the game back when it lets go);
- otherwise wake it: back into the ready set (keeping its place if it is there), and a
  runner is enqueued if fewer than `max_runners` runner slots are alive. A dead runner's
  slot expires once it stops renewing it, so a lost runner is replaced within its slot TTL.
A spare runner is harmless: the lease lets one runner at a time apply a game's commands.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import structlog

from service.core.ports.event_store import SweptStore
from service.core.ports.scheduling import DrainScheduler
from service.core.ports.seats import PendingIndex

log = structlog.get_logger("skald.sweeper")


@dataclass
class SweepReport:
    """What one sweep saw and did."""

    visited: int = 0
    forgotten: int = 0
    woken: int = 0  # games with waiting commands and no lease, made sure to be ready
    runners_started: int = 0


async def sweep(
    store: SweptStore,
    pending: PendingIndex,
    scheduler: DrainScheduler,
    grace_ms: int,
    limit: int = 1000,
    visit: Callable[[str], Awaitable[object]] | None = None,
) -> SweepReport:
    """Visit games marked pending before `grace_ms` ago; wake those no runner will reach.
    `visit` is called with each game visited (the notification projector's catch-up)."""
    report = SweepReport()
    now = await pending.now_ms()
    for game_id, mark in await pending.marked_before(now - grace_ms, limit):
        report.visited += 1
        if visit is not None:
            await visit(game_id)
        head = await store.head(game_id)
        waiting = await store.inbox(game_id, head.cursor, 1) if head is not None else []
        if not waiting:
            await pending.forget(game_id, mark)
            report.forgotten += 1
            continue
        if await store.lease_held(game_id):
            continue
        report.woken += 1
        job_id = store.runner_job_for(game_id, scheduler.new_job_id())
        if await store.wake(game_id, job_id):
            await scheduler.schedule(job_id)
            report.runners_started += 1
            log.warning("runner_started", game_id=game_id, job_id=job_id)
    return report
