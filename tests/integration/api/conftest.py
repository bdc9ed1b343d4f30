"""A real Skald for HTTP tests: uvicorn serving the API, a worker process, the real Redis.

Everything this suite writes carries its own key prefix and RQ queue name, and is deleted
afterwards; nothing else in the Redis is touched.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
import redis

from service.adapters.embedded_redis import free_port
from service.cli.client import SkaldClient
from service.cli.processes import WORKER_MODULE, ApiServer, settings_env, spawn, stop_process
from service.shared.settings import Settings
from tests.asyncapi_messages import AsyncApiMessages

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
PLUGINS = "tests.fakes.race"


@dataclass
class LiveService:
    """A running API (its URL) with one worker, over the real Redis."""

    url: str
    settings: Settings
    worker: subprocess.Popen[bytes]

    def client(self) -> SkaldClient:
        """A fresh API client (close it, or use it in a `with`)."""
        return SkaldClient(self.url, timeout_s=15)


def _delete_keys(client: redis.Redis, pattern: str) -> None:
    batch = list(client.scan_iter(match=pattern, count=1000))
    if batch:
        client.delete(*batch)


@pytest.fixture(scope="package")
def live_service() -> Iterator[LiveService]:
    run = uuid.uuid4().hex[:10]
    settings = Settings(
        redis_url=REDIS_URL,
        key_prefix=f"it-api-{run}:",
        queue_name=f"it-api-{run}",
        plugins=PLUGINS,
        max_wait_s=10.0,
        sweep_interval_s=0.5,
    )
    direct = redis.Redis.from_url(REDIS_URL)
    try:
        direct.ping()
    except redis.ConnectionError as exc:
        pytest.fail(f"integration tests need a Redis at {REDIS_URL}: {exc}")
    worker = spawn(
        [sys.executable, "-m", WORKER_MODULE, "--log-level", "WARNING"],
        settings_env(settings),
    )
    api = ApiServer(settings, "127.0.0.1", free_port())
    api.start_in_thread()
    try:
        yield LiveService(api.url, settings, worker)
    finally:
        api.stop()
        stop_process(worker)
        _delete_keys(direct, f"{settings.key_prefix}*")
        _delete_keys(direct, f"rq:*{settings.queue_name}*")
        direct.close()


@pytest.fixture
def http(live_service: LiveService) -> Iterator[httpx.Client]:
    """An HTTP client of the live service."""
    with httpx.Client(base_url=live_service.url, timeout=10) as client:
        yield client


@pytest.fixture(scope="package")
def asyncapi_messages(live_service: LiveService) -> AsyncApiMessages:
    """Checks messages against the AsyncAPI document the live service serves."""
    document = httpx.get(f"{live_service.url}/asyncapi.json", timeout=30).json()
    return AsyncApiMessages(document)
