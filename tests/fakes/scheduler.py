"""A drain scheduler that records jobs instead of queueing them (tests run drains by hand)."""

from __future__ import annotations

from service.pipeline.schedule import drain_job_id


class RecordingScheduler:
    """A scheduler that only records what was scheduled (unit tests run the drains by hand)."""

    def __init__(self) -> None:
        self.scheduled: list[tuple[str, str]] = []
        self.statuses: dict[str, str] = {}

    def new_job_id(self, game_id: str) -> str:
        """A fresh job id for a drain of `game_id`."""
        return drain_job_id(game_id)

    async def schedule(self, game_id: str, job_id: str) -> None:
        """Record the drain job."""
        self.scheduled.append((game_id, job_id))
        self.statuses[job_id] = "queued"

    async def job_status(self, job_id: str) -> str | None:
        """What the test says the job's status is."""
        return self.statuses.get(job_id)
