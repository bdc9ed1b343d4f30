"""Scheduling drain jobs on RQ: by dotted path, JSON payloads, one job id per scheduling."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any, Protocol

from redis import Redis as SyncRedis
from rq import Queue
from rq.job import Job
from rq.serializers import JSONSerializer

DRAIN_JOB = "workers.jobs.drain"
LOST = "lost"  # a status of our own: RQ says "queued" but the job is in no queue


class DrainScheduler(Protocol):
    """Where drain jobs go (RQ in production, a list in unit tests)."""

    def new_job_id(self, game_id: str) -> str:
        """A fresh job id for a drain of `game_id`."""
        ...

    async def schedule(self, game_id: str, job_id: str) -> None:
        """Queue a drain job for the game under `job_id`."""
        ...

    async def job_status(self, job_id: str) -> str | None:
        """The job's RQ status ("queued", "started", ...), or None when it does not exist."""
        ...


def drain_job_id(game_id: str) -> str:
    """A drain job id: the game id and a random suffix (RQ allows [A-Za-z0-9_-])."""
    return f"drain-{game_id}-{secrets.token_hex(6)}"


class RQScheduler:
    """Drain jobs on an RQ queue; enqueueing runs in a thread, off the event loop."""

    def __init__(
        self, connection: SyncRedis, queue_name: str, key_prefix: str, job_timeout_s: int
    ) -> None:
        self.connection = connection
        self.queue = Queue(queue_name, connection=connection, serializer=JSONSerializer)
        self.key_prefix = key_prefix
        self.job_timeout_s = job_timeout_s

    def new_job_id(self, game_id: str) -> str:
        """A fresh job id for a drain of `game_id`."""
        return drain_job_id(game_id)

    def enqueue(self, game_id: str, job_id: str) -> None:
        """Queue the drain job (blocking)."""
        self.queue.enqueue(
            DRAIN_JOB,
            game_id,
            self.key_prefix,
            job_id=job_id,
            job_timeout=self.job_timeout_s,
            result_ttl=0,  # the outcome lives in the game's record, not in RQ
            failure_ttl=24 * 3600,
        )

    async def schedule(self, game_id: str, job_id: str) -> None:
        """Queue a drain job for the game under `job_id`."""
        await asyncio.to_thread(self.enqueue, game_id, job_id)

    def _status(self, job_id: str) -> str | None:
        raw: Any = self.connection.hget(Job.key_for(job_id), "status")
        if raw is None:
            return None
        status = bytes(raw).decode()
        # A worker killed between taking the job off the queue and starting it leaves it
        # "queued" but in no queue: report it lost so the sweeper replaces it.
        if status == "queued" and self.connection.lpos(self.queue.key, job_id) is None:
            return LOST
        return status

    async def job_status(self, job_id: str) -> str | None:
        """The job's RQ status, LOST if it says queued but is in no queue, None if unknown."""
        return await asyncio.to_thread(self._status, job_id)
