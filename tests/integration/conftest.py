"""Real Redis for the service-core integration tests, and worker processes to drive it.

Each test gets its own key prefix and RQ queue name; afterwards only its own keys (and the RQ
keys of its queue and of its runner jobs) are deleted. The HTTP suite in api/ has its
own fixtures.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Iterator

import msgspec
import pytest
import redis
from redis.asyncio import Redis as AsyncRedis

from service import bootstrap
from service.facade.skald import Skald
from service.shared.settings import ENV_PREFIX, Settings

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
PLUGINS = "tests.fakes.race"
WORKER_COMMAND = (sys.executable, "-m", "workers.main", "--log-level=WARNING")


def _delete(client: redis.Redis, pattern: str) -> None:
    keys = list(client.scan_iter(match=pattern, count=1000))
    if keys:
        client.delete(*keys)


def clean_up(settings: Settings) -> None:
    """Delete every key this test's prefix and queue created."""
    client = redis.Redis.from_url(settings.redis_url)
    try:
        _delete(client, f"{settings.key_prefix}*")
        # The queue, its registries, its workers and its runner jobs (named after the queue).
        _delete(client, f"rq:*{settings.queue_name}*")
        for registry in ("rq:queues", "rq:workers"):
            mine = [m for m in client.smembers(registry) if settings.queue_name.encode() in m]
            if mine:
                client.srem(registry, *mine)
    finally:
        client.close()


@pytest.fixture
def core_settings() -> Iterator[Settings]:
    """Settings of one test: its own prefix and queue, fast sweeps and short leases."""
    run = uuid.uuid4().hex[:10]
    settings = Settings(
        redis_url=REDIS_URL,
        key_prefix=f"it-core-{run}:",
        queue_name=f"it-core-{run}",
        plugins=PLUGINS,
        max_wait_s=20.0,
        rate_per_seat=0,
        lease_ttl_s=2.0,
        sweep_interval_s=0.2,
        sweep_grace_s=0.2,
        runner_slot_ttl_s=1.0,
    )
    try:
        redis.Redis.from_url(REDIS_URL).ping()
    except redis.ConnectionError as exc:
        pytest.fail(f"integration tests need a Redis at {REDIS_URL}: {exc}")
    yield settings
    clean_up(settings)


@pytest.fixture
async def event_client(core_settings: Settings) -> AsyncIterator[AsyncRedis]:
    """An asyncio client of the test's Redis (its keys go with `core_settings`)."""
    client = AsyncRedis.from_url(core_settings.redis_url)
    yield client
    await client.aclose()


@pytest.fixture
async def skald(core_settings: Settings) -> AsyncIterator[Skald]:
    """The facade on the real Redis and the real RQ queue."""
    facade = await bootstrap.connect(core_settings)
    yield facade
    await facade.close()


def worker_env(settings: Settings) -> dict[str, str]:
    """The environment a worker process reads these settings from."""
    env = dict(os.environ)
    for name, value in msgspec.structs.asdict(settings).items():
        env[ENV_PREFIX + name.upper()] = str(value)
    return env


class Workers:
    """Worker processes (`python -m workers.main`) for one test."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.processes: list[subprocess.Popen[bytes]] = []
        self.started = 0

    def start(self, count: int = 1, *extra: str) -> None:
        """Start `count` more workers."""
        for _ in range(count):
            self.started += 1
            # Named after the queue, so that clean-up finds what a killed worker left behind.
            name = f"{self.settings.queue_name}-w{self.started}"
            self.processes.append(
                subprocess.Popen(
                    [*WORKER_COMMAND, f"--name={name}", *extra],
                    env=worker_env(self.settings),
                    stdout=subprocess.DEVNULL,
                )
            )

    def kill(self, index: int) -> None:
        """SIGKILL one worker, as a crash would, and reap it."""
        process = self.processes.pop(index)
        process.send_signal(signal.SIGKILL)
        process.wait()

    def stop(self) -> None:
        """Ask every worker to stop (SIGTERM: each finishes its job) and wait."""
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.processes.clear()


@pytest.fixture
def workers(core_settings: Settings) -> Iterator[Workers]:
    """Worker processes, stopped at the end of the test."""
    pool = Workers(core_settings)
    yield pool
    pool.stop()
