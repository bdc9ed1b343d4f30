"""The web client in a real browser: Debian's Chromium driven by Playwright, against a real
Skald (uvicorn serving the API and the built client, a worker process, the real Redis).

The tests skip, saying why, when the client is not built (`make web`, which needs npm) or no
Chromium is installed (`make browser` installs Debian's). Screenshots go to
tests/browser/screenshots/ (ignored by git).
"""

from __future__ import annotations

import os
import shutil
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from service.adapters.embedded_redis import free_port
from service.api.web_client import WEB_DIST
from service.cli.processes import WORKER_MODULE, ApiServer, settings_env, spawn, stop_process
from service.shared.settings import Settings

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
CHROMIUM = Path(os.environ.get("SKALD_TEST_CHROMIUM", "/usr/bin/chromium"))
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"

pytestmark = pytest.mark.redis


def _delete_keys(client: redis.Redis, pattern: str) -> None:
    batch = list(client.scan_iter(match=pattern, count=1000))
    if batch:
        client.delete(*batch)


@dataclass
class WebService:
    """A running Skald serving the web client at `url` + /play/."""

    url: str
    settings: Settings


@pytest.fixture(scope="package")
def web_service() -> Iterator[WebService]:
    """The API and the client on a free port, two workers, keys under their own prefix."""
    if not (WEB_DIST / "index.html").is_file():
        pytest.skip(f"the web client is not built in {WEB_DIST}: `make web` builds it (needs npm)")
    run = uuid.uuid4().hex[:10]
    settings = Settings(
        redis_url=REDIS_URL,
        key_prefix=f"web-{run}:",
        queue_name=f"web-{run}",
        max_wait_s=10.0,
        sweep_interval_s=0.2,
    )
    direct = redis.Redis.from_url(REDIS_URL)
    try:
        direct.ping()
    except redis.ConnectionError as exc:
        pytest.fail(f"the browser tests need a Redis at {REDIS_URL}: {exc}")
    workers = [
        spawn(
            [sys.executable, "-m", WORKER_MODULE, "--log-level", "WARNING"], settings_env(settings)
        )
        for _ in range(2)
    ]
    api = ApiServer(settings, "127.0.0.1", free_port())
    api.start_in_thread()
    try:
        yield WebService(api.url, settings)
    finally:
        api.stop()
        for worker in workers:
            stop_process(worker)
        _delete_keys(direct, f"{settings.key_prefix}*")
        _delete_keys(direct, f"rq:*{settings.queue_name}*")
        direct.close()


@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    """Debian's Chromium, headless, through Playwright."""
    if not CHROMIUM.is_file() and not shutil.which("chromium"):
        pytest.skip(
            f"no Chromium at {CHROMIUM}: `make browser` installs Debian's (apt-get, as root)"
        )
    from playwright.sync_api import sync_playwright

    driver = sync_playwright().start()
    executable = str(CHROMIUM) if CHROMIUM.is_file() else shutil.which("chromium")
    launched = driver.chromium.launch(executable_path=executable, args=["--no-sandbox"])
    try:
        yield launched
    finally:
        launched.close()
        driver.stop()


@pytest.fixture
def screenshots() -> Path:
    """Where the tests save their screenshots."""
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS
