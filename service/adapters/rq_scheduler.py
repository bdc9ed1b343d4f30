"""Scheduling drain runners on RQ: by dotted path, JSON payloads, one job id per runner job."""

from __future__ import annotations

import asyncio
import itertools
import os
import secrets

from redis import Redis as SyncRedis
from rq import Queue
from rq.serializers import JSONSerializer

RUNNER_JOB = "workers.jobs.run_drains"


def runner_job_id(queue_name: str) -> str:
    """A runner job id: the queue's name, a random token of this process's own and a count
    (RQ allows [A-Za-z0-9_-]). Unique without drawing random bytes on every call: the API
    asks for one with every submit (in case it must start a runner)."""
    return f"{queue_name}-runner-{_process_token()}-{next(_job_numbers):x}"


_job_numbers = itertools.count()
_token: tuple[int, str] = (0, "")


def _process_token() -> str:
    """A random token drawn once per process (again in a forked child)."""
    global _token
    pid = os.getpid()
    if _token[0] != pid:
        _token = (pid, secrets.token_hex(6))
    return _token[1]


class RQScheduler:
    """Drain runners on an RQ queue; enqueueing runs in a thread, off the event loop."""

    def __init__(
        self, connection: SyncRedis, queue_name: str, key_prefix: str, job_timeout_s: int
    ) -> None:
        self.connection = connection
        self.queue = Queue(queue_name, connection=connection, serializer=JSONSerializer)
        self.key_prefix = key_prefix
        self.job_timeout_s = job_timeout_s

    def new_job_id(self) -> str:
        """A fresh job id for a drain runner."""
        return runner_job_id(self.queue.name)

    def enqueue(self, job_id: str) -> None:
        """Queue the runner job (blocking)."""
        self.queue.enqueue(
            RUNNER_JOB,
            job_id,
            self.key_prefix,
            job_id=job_id,
            job_timeout=self.job_timeout_s,
            result_ttl=0,  # what runners did lives in the games' records, not in RQ
            failure_ttl=24 * 3600,
        )

    async def schedule(self, job_id: str) -> None:
        """Queue a drain runner under `job_id`."""
        await asyncio.to_thread(self.enqueue, job_id)
