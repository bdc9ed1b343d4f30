"""A whole Skald for a benchmark: `skald serve` (one uvicorn API process plus its workers) as a
child process over the real Redis, under its own key prefix and RQ queue, deleted afterwards.

The API and the workers run exactly as in production; only the race fake game is added (as a
plugin) and the per-seat rate limit lifted, since the load generator is one client playing
hundreds of seats as fast as it can.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import redis

from service.adapters.embedded_redis import free_port
from service.cli.processes import settings_env, spawn, stop_process
from service.shared.settings import Settings

CHECKOUT = Path(__file__).resolve().parents[2]
PLUGINS = "tests.fakes.race"
START_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class LiveSkald:
    """A running service: its base URL, how it was configured, and its process (the API; the
    workers are its children)."""

    url: str
    settings: Settings
    workers: int
    pid: int


def delete_keys(client: redis.Redis, pattern: str) -> None:
    """Delete every key matching `pattern` (only this run's keys are ever matched)."""
    batch: list[bytes] = []
    for key in client.scan_iter(match=pattern, count=1000):
        batch.append(key)
        if len(batch) >= 1000:
            client.delete(*batch)
            batch.clear()
    if batch:
        client.delete(*batch)


def _wait_until_ready(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"skald serve exited with status {process.returncode}")
        try:
            if httpx.get(f"{url}/readyz", timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)  # a child process's readiness can only be polled
    raise RuntimeError(f"skald serve did not get ready on {url}")


@contextmanager
def live_skald(
    redis_url: str, workers: int, batch_size: int, **overrides: Any
) -> Iterator[LiveSkald]:
    """`skald serve` with `workers` worker processes draining up to `batch_size` per job
    (other settings as `overrides`)."""
    run = uuid.uuid4().hex[:10]
    settings = Settings(
        redis_url=redis_url,
        key_prefix=f"bench-{run}:",
        queue_name=f"bench-{run}",
        plugins=PLUGINS,
        rate_per_seat=0,
        # Every table comes from this one address (10 000 games at once in the timers' runs).
        players_per_address=0,
        guest_games_per_address=0,
        batch_size=batch_size,
        bench_echo=True,
        **overrides,
    )
    port = free_port()
    env = settings_env(settings)
    # Workers import the race game from this checkout's tests package.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(CHECKOUT), env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "service.cli", "serve", "--port", str(port)]
    command += ["--workers", str(workers), "--log-level", "WARNING"]
    # Its warnings would garble the figures (and --json): they go nowhere.
    with open(os.devnull, "wb") as devnull:
        process = spawn(command, env, devnull)
    direct = redis.Redis.from_url(redis_url)
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_until_ready(url, process)
        yield LiveSkald(url, settings, workers, process.pid)
    finally:
        stop_process(process, timeout_s=20)
        delete_keys(direct, f"{settings.key_prefix}*")
        delete_keys(direct, f"rq:*{settings.queue_name}*")
        direct.close()
