"""A drain runner: one RQ job that drains many games, in rounds of several games at once.

Turn-based tables have one command in flight, so a job per game applied one to three
commands and paid RQ's whole per-job cost for them (docs/benchmarks.md). A runner pays it
once for as many games as are ready: each round it takes up to `round_size` games, those
waiting longest, gives each one batch (`Drainer.drain_round`, which puts a game back if more
waits), and goes on until its time budget is spent or no game has come for `idle_s`. The
wait for the next round's games rides in the same pipeline as the round's commit: two round
trips a round (open, then commit-and-take), not three.

Waiting a little for the next game (blocked on Redis, so a game made ready wakes the runner at
once) is what keeps a command from paying an RQ job at moderate load: without it a runner ended
whenever it had caught up, and the next submission started a new job (about 3 ms of CPU and a
queue hop, measured by `skald bench`). A runner that stops on its budget hands its slot to a
successor job and enqueues it, so RQ gets to breathe (timeouts, shutdown) and no job holds a
worker for ever; one that stops for want of games gives its slot up, unless games became
ready meanwhile.

At most `max_runners` runners are scheduled at once (their slots, see CommandInbox.submit);
a runner killed mid-way stops renewing its slot, which expires, and the sweeper puts back
the game it held. A runner whose round crashed (Redis gone, or a bug in the drain's own code:
a game's own failures are caught inside the round) pauses before handing its slot on, so a
failure that repeats costs a round every `failure_pause_s`, not a loop of jobs at full speed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import structlog

from service.core.pipeline.drain import Drainer, NextTake
from service.core.ports.event_store import DrainRounds
from service.core.ports.scheduling import DrainScheduler
from service.shared.settings import Settings

log = structlog.get_logger("skald.worker")

# How long a runner whose round crashed waits before handing its slot on: short enough that
# a Redis back after a restart is drained again at once, long enough that a round failing
# every time is tried a couple of times a second rather than hundreds.
FAILURE_PAUSE_S = 0.5


@dataclass
class RunnerReport:
    """What one runner job did."""

    job_id: str
    rounds: int = 0
    games: int = 0  # games taken from the ready set
    commands: int = 0
    successor: str | None = None  # the job it handed its slot to
    failed: bool = False  # a round crashed (its leases were given back) and the runner ended


class DrainRunner:
    """Takes ready games a round at a time and drains a batch of each, within a time budget."""

    def __init__(
        self,
        store: DrainRounds,
        drainer: Drainer,
        scheduler: DrainScheduler,
        budget_s: float,
        max_rounds: int = 0,
        clock: Callable[[], float] = time.monotonic,
        round_size: int = 1,
        idle_s: float = 0.0,
        failure_pause_s: float = FAILURE_PAUSE_S,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.store = store
        self.drainer = drainer
        self.scheduler = scheduler
        self.budget_s = budget_s
        self.max_rounds = max_rounds  # 0: no limit but the time budget
        self.clock = clock
        self.round_size = round_size  # games taken at once
        self.idle_s = idle_s  # how long to wait for a game before ending
        self.failure_pause_s = failure_pause_s  # the wait after a crashed round
        self.sleep = sleep

    @classmethod
    def configured(
        cls, settings: Settings, store: DrainRounds, drainer: Drainer, scheduler: DrainScheduler
    ) -> DrainRunner:
        """A runner with the budget, round size and round limit `settings` give."""
        return cls(
            store,
            drainer,
            scheduler,
            settings.runner_budget_s,
            settings.runner_max_rounds,
            round_size=settings.runner_round_size,
            idle_s=settings.runner_idle_wait_s,
        )

    async def run(self, job_id: str) -> RunnerReport:
        """Drain ready games until none is left or the budget is spent, then end the job."""
        report = RunnerReport(job_id)
        deadline = self.clock() + self.budget_s
        out_of_time = False
        next_take = NextTake(job_id, self.round_size, self.idle_s)
        try:
            game_ids = await self.store.take_ready(job_id, self.round_size, self.idle_s)
            while game_ids:
                last = report.rounds + 1 == self.max_rounds or self.clock() >= deadline
                # A round's commit also takes (or waits for) the next round's games, in the
                # same round trip, unless this round is the runner's last.
                drained = await self.drainer.drain_round(game_ids, None if last else next_take)
                report.rounds += 1
                report.games += len(drained.reports)
                report.commands += sum(game.commands for game in drained.reports)
                if last:
                    out_of_time = report.rounds != self.max_rounds  # the successor carries on
                    break
                if drained.taken or drained.waited:
                    game_ids = drained.taken
                else:
                    game_ids = await self.store.take_ready(job_id, self.round_size, self.idle_s)
        except Exception:
            # A crashed round gave its leases back (Drainer.drain_round), and the slot is
            # handed on below (or given up) rather than held until it expires.
            log.exception("runner_round_failed", job_id=job_id, rounds=report.rounds)
            report.failed = True
            await self.sleep(self.failure_pause_s)
        # Checked atomically with submit: a game marked ready meanwhile gets a successor.
        successor = self.scheduler.new_job_id()
        if await self.store.end_runner(job_id, successor, keep=out_of_time):
            await self.scheduler.schedule(successor)
            report.successor = successor
        return report
