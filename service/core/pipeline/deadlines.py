"""The deadline sweeper: turns passed deadlines into timeout commands on the games' inboxes.

The timeout travels the inbox like any command, so it is ordered against a late move: the
one the inbox holds first wins, and the other is refused (`timer.stale` for a timeout whose
seat moved first; the rules' own refusal, e.g. `turn.not_yours`, for a move the stand-in bot
already played). A timeout's command id names its deadline (`sys:timeout:<seat>:<since>`):
submitted twice (a sweeper that crashed before removing it, two sweepers at once) it is a
duplicate, so a deadline never fires twice.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import structlog

from contracts.system import TimeOut
from domain.table import timeout_id
from service.core.pipeline.lifecycle import queue_system
from service.core.ports.deadlines import Deadlines, DueDeadline
from service.core.ports.event_store import CommandStore, GameMissing
from service.core.ports.scheduling import DrainScheduler
from service.shared.errors import ServiceError

log = structlog.get_logger("skald.deadlines")
FIRED_AT_ONCE = 64  # timeouts queued concurrently


@dataclass
class DeadlineReport:
    """What one pass did."""

    due: int = 0
    fired: int = 0  # timeouts queued now (not counting duplicates of ones queued before)


async def fire_due(
    deadlines: Deadlines,
    store: CommandStore,
    scheduler: DrainScheduler,
    now_ms: int | None = None,
    limit: int = 1000,
) -> DeadlineReport:
    """Queue a timeout for every deadline passed at `now_ms` (the Redis clock by default),
    `FIRED_AT_ONCE` at a time (each is a few round trips to Redis: they overlap)."""
    now = await deadlines.now_ms() if now_ms is None else now_ms
    report = DeadlineReport()
    due = await deadlines.due(now, limit)
    report.due = len(due)
    for first in range(0, len(due), FIRED_AT_ONCE):
        chunk = due[first : first + FIRED_AT_ONCE]
        results = await asyncio.gather(*(_fire(store, scheduler, d) for d in chunk))
        report.fired += sum(1 for result in results if result is True)
        done = [d for d, result in zip(chunk, results, strict=True) if result is not None]
        await deadlines.remove_all(done)
    return report


async def _fire(
    store: CommandStore, scheduler: DrainScheduler, deadline: DueDeadline
) -> bool | None:
    """Queue one deadline's timeout: whether it was new (False: queued before, or its game is
    gone), None when it must stay indexed (its game is quarantined or damaged)."""
    command = TimeOut(deadline.seat, deadline.since)
    try:
        return await queue_system(
            store,
            scheduler,
            deadline.game_id,
            timeout_id(deadline.seat, deadline.since),
            command,
        )
    except GameMissing:
        log.info("deadline_of_missing_game", game_id=deadline.game_id)
        return False
    except ServiceError as exc:  # quarantined or damaged: kept for when it is back
        log.warning("deadline_deferred", game_id=deadline.game_id, code=exc.code)
        return None
