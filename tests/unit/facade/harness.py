"""The facade over fakeredis, with drain runners run by hand instead of by RQ workers."""

from __future__ import annotations

from dataclasses import dataclass

import fakeredis

from service import bootstrap
from service.core.pipeline.drain import Drainer
from service.core.pipeline.runner import DrainRunner
from service.facade.skald import Skald
from service.shared.settings import Settings
from tests.fakes.scheduler import RecordingScheduler


@dataclass
class Harness:
    """A Skald facade and the worker side that a test drives step by step."""

    skald: Skald
    scheduler: RecordingScheduler
    drainer: Drainer
    runner: DrainRunner

    async def run_jobs(self) -> int:
        """Run every scheduled runner job, and the successors they schedule; how many ran."""
        return await self.scheduler.run_all(self.runner)


def make_harness(redis: fakeredis.aioredis.FakeRedis, **settings: object) -> Harness:
    """A facade on `redis` with the given setting overrides."""
    # Runners end as soon as they catch up: tests run them by hand, one job after another.
    overrides = {"runner_idle_s": 0.0, **settings}
    config = Settings.from_env({}, redis_url="redis://fake", key_prefix="t:", **overrides)
    scheduler = RecordingScheduler()
    skald = bootstrap.skald(config, redis, scheduler)
    runner = bootstrap.drain_runner(config, redis, skald.store, scheduler)
    return Harness(skald, scheduler, runner.drainer, runner)
