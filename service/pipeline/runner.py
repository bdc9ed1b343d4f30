"""A drain runner: one RQ job that drains many games, one batch per game per turn.

Turn-based tables have one command in flight, so a job per game applied one to three
commands and paid RQ's whole per-job cost for them (docs/benchmarks.md). A runner pays it
once for as many games as are ready: it takes the game waiting longest, gives it one batch
(`Drainer.drain`, which puts the game back if more waits), and goes on until no game is
ready or its time budget is spent. Then it gives up its slot, or, when games are still
ready, hands the slot to a successor job and enqueues it: RQ gets to breathe (timeouts,
shutdown) and a long-lived job never holds a worker for ever.

At most `max_runners` runners are scheduled at once (their slots, see EventStore.submit);
a runner killed mid-way stops renewing its slot, which expires, and the sweeper puts back
the game it held.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from service.pipeline.drain import Drainer
from service.pipeline.schedule import DrainScheduler
from service.store.protocol import EventStore


@dataclass
class RunnerReport:
    """What one runner job did."""

    job_id: str
    turns: int = 0  # games taken from the ready set
    commands: int = 0
    successor: str | None = None  # the job it handed its slot to


class DrainRunner:
    """Takes ready games in turn and drains a batch of each, within a time budget."""

    def __init__(
        self,
        store: EventStore,
        drainer: Drainer,
        scheduler: DrainScheduler,
        budget_s: float,
        max_turns: int = 0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.drainer = drainer
        self.scheduler = scheduler
        self.budget_s = budget_s
        self.max_turns = max_turns  # 0: no limit but the time budget
        self.clock = clock

    async def run(self, job_id: str) -> RunnerReport:
        """Drain ready games until none is left or the budget is spent, then end the job."""
        report = RunnerReport(job_id)
        deadline = self.clock() + self.budget_s
        while (game_id := await self.store.take_ready(job_id)) is not None:
            drained = await self.drainer.drain(game_id)
            report.turns += 1
            report.commands += drained.commands
            if self.clock() >= deadline or report.turns == self.max_turns:
                break
        # Checked atomically with submit: a game marked ready meanwhile gets a successor.
        successor = self.scheduler.new_job_id()
        if await self.store.end_runner(job_id, successor):
            await self.scheduler.schedule(successor)
            report.successor = successor
        return report
