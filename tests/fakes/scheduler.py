"""A runner scheduler that records jobs instead of queueing them (tests run runners by hand)."""

from __future__ import annotations

from service.adapters.rq_scheduler import runner_job_id
from service.core.pipeline.runner import DrainRunner


class RecordingScheduler:
    """A scheduler that only records the runner jobs scheduled (unit tests run them)."""

    def __init__(self) -> None:
        self.scheduled: list[str] = []

    def new_job_id(self) -> str:
        """A fresh job id for a drain runner."""
        return runner_job_id("test")

    async def schedule(self, job_id: str) -> None:
        """Record the runner job."""
        self.scheduled.append(job_id)

    async def run_all(self, runner: DrainRunner) -> int:
        """Run every scheduled runner job, and the successors they schedule; how many ran."""
        ran = 0
        while self.scheduled:
            await runner.run(self.scheduled.pop(0))
            ran += 1
        return ran
