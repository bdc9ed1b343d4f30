"""The facade over fakeredis, with drain runners run by hand instead of by RQ workers."""

from __future__ import annotations

from dataclasses import dataclass

import fakeredis

from service.app import Skald
from service.notify import Publisher
from service.pipeline.drain import Drainer
from service.pipeline.runner import DrainRunner
from service.pipeline.session import SessionCache
from service.settings import Settings
from service.store.side import Lobby, Views
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
    skald = Skald(config, redis, scheduler)
    drainer = Drainer(
        skald.store,
        Views(redis, config.key_prefix, skald.store.scripts),
        Lobby(redis, config.key_prefix),
        Publisher(redis, config.key_prefix),
        SessionCache(16),
        config.batch_size,
        int(config.lease_ttl_s * 1000),
    )
    runner = DrainRunner.configured(config, skald.store, drainer, scheduler)
    return Harness(skald, scheduler, drainer, runner)
