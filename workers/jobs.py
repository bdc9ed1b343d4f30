"""RQ job functions, enqueued by dotted path (`workers.jobs.run_drains`) with JSON arguments."""

from __future__ import annotations

import threading
from dataclasses import asdict
from typing import Any

from service.shared.settings import Settings, load_plugins
from workers.runtime import WorkerRuntime

# One runtime per (thread, key prefix): the worker process installs its own; a worker started
# another way (plain `rq worker`) builds one from the environment on the first job.
_local = threading.local()


def install(runtime: WorkerRuntime) -> None:
    """Make `runtime` serve this thread's jobs for its key prefix."""
    _runtimes()[runtime.settings.key_prefix] = runtime


def uninstall(runtime: WorkerRuntime) -> None:
    """Forget `runtime` (its owner closes it)."""
    _runtimes().pop(runtime.settings.key_prefix, None)


def _runtimes() -> dict[str, WorkerRuntime]:
    runtimes: dict[str, WorkerRuntime] | None = getattr(_local, "runtimes", None)
    if runtimes is None:
        runtimes = _local.runtimes = {}
    return runtimes


def runtime_for(key_prefix: str) -> WorkerRuntime:
    """This thread's runtime for a key prefix, built from the environment if need be."""
    runtime = _runtimes().get(key_prefix)
    if runtime is None:
        settings = Settings.from_env(key_prefix=key_prefix)
        load_plugins(settings)
        runtime = WorkerRuntime(settings)
        install(runtime)
    return runtime


def run_drains(job_id: str, key_prefix: str = "") -> dict[str, Any]:
    """Be the drain runner `job_id` (its own RQ job id): drain ready games, then end or hand
    over to a successor job."""
    return asdict(runtime_for(key_prefix).run_drains(job_id))
