"""Where drain runner jobs go: the command side and the sweeper start runners through it."""

from __future__ import annotations

from typing import Protocol


class DrainScheduler(Protocol):
    """Where drain runner jobs go (RQ in production, a list in unit tests)."""

    def new_job_id(self) -> str:
        """A fresh job id for a drain runner."""
        ...

    async def schedule(self, job_id: str) -> None:
        """Queue a drain runner under `job_id` (its slot is already claimed)."""
        ...
