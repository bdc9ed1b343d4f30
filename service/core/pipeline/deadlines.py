"""The deadline sweeper: turns passed deadlines into timeout commands on the games' inboxes.

The timeout travels the inbox like any command, so it is ordered against a late move: the
one the inbox holds first wins, and the other is refused (`timer.stale` for a timeout whose
seat moved first; the rules' own refusal, e.g. `turn.not_yours`, for a move the stand-in bot
already played). A timeout's command id names its deadline (`sys:timeout:<seat>:<since>`):
submitted twice (a sweeper that crashed before removing it, two sweepers at once) it is a
duplicate, so a deadline never fires twice.
"""

from __future__ import annotations

from dataclasses import dataclass

import structlog

from service.adapters.rq_scheduler import DrainScheduler
from service.adapters.store.deadlines import Deadlines
from service.adapters.store.ports import CommandStore, GameMissing
from service.core.pipeline.lifecycle import TimeOut, queue_system, timeout_id
from service.shared.errors import ServiceError

log = structlog.get_logger("skald.deadlines")


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
    """Queue a timeout for every deadline passed at `now_ms` (the Redis clock by default)."""
    now = await deadlines.now_ms() if now_ms is None else now_ms
    report = DeadlineReport()
    for deadline in await deadlines.due(now, limit):
        report.due += 1
        command = TimeOut(deadline.seat, deadline.since)
        try:
            fresh = await queue_system(
                store,
                scheduler,
                deadline.game_id,
                timeout_id(deadline.seat, deadline.since),
                command,
            )
        except GameMissing:
            log.info("deadline_of_missing_game", game_id=deadline.game_id)
            fresh = False
        except ServiceError as exc:  # quarantined or damaged: kept for when it is back
            log.warning("deadline_deferred", game_id=deadline.game_id, code=exc.code)
            continue
        report.fired += fresh
        await deadlines.remove(deadline)
    return report
