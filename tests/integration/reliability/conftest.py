"""A whole Skald of each test's own: a redis-server with AOF fsynced on every write (as the
shipped deploy/redis.conf), worker processes, and the API on a real uvicorn server.

Figures the tests measure go through figures.record_figures.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.adapters.embedded_redis import free_port
from service.cli.processes import ApiServer
from service.shared.settings import Settings
from tests.fakes.race import race_config
from tests.integration.conftest import PLUGINS, Workers
from tests.integration.test_redis_restart import OwnRedis


def wait_until(check: Any, timeout_s: float, what: str) -> None:
    """Poll `check()` until true (processes coming up signal nothing we could await)."""
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


@dataclass
class Stack:
    """Redis, workers and the API of one test."""

    redis: OwnRedis
    settings: Settings
    workers: Workers
    api: ApiServer
    http: httpx.Client

    def bearer(self, token: str) -> dict[str, str]:
        """The Authorization header of a seat token."""
        return {"authorization": f"Bearer {token}"}

    def seated_game(self, players: int = 2, target: int = 30) -> tuple[str, list[str]]:
        """A race game with every seat taken: its id and the seats' tokens."""
        created = self.http.post(
            "/games", json={"game": "race", "config": race_config(players, target)}
        )
        assert created.status_code == 201, created.text
        game_id: str = created.json()["game_id"]
        tokens = []
        for _ in range(players):
            joined = self.http.post(f"/games/{game_id}/seats", json={})
            assert joined.status_code == 201, joined.text
            tokens.append(joined.json()["token"])
        return game_id, tokens

    def turn(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        """GET /turn as a seat (or as a spectator without a token)."""
        response = self.http.get(
            f"/games/{game_id}/turn", headers=self.bearer(token) if token else {}
        )
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    def version(self, game_id: str) -> int:
        """The game's stream version, as the events endpoint reports it."""
        response = self.http.get(f"/games/{game_id}/events", params={"limit": 1})
        assert response.status_code == 200, response.text
        version: int = response.json()["last_version"]
        return version

    def ready(self) -> bool:
        """Whether the API answers its readiness probe with 200."""
        try:
            return self.http.get("/readyz").status_code == 200
        except httpx.TransportError:
            return False


def stack_settings(redis_url: str, **overrides: Any) -> Settings:
    """Settings for a stack: fast sweeps and short leases, so recovery fits in a test."""
    values: dict[str, Any] = {
        "redis_url": redis_url,
        "plugins": PLUGINS,
        "max_wait_s": 10.0,
        "rate_per_seat": 0,
        "lease_ttl_s": 1.5,
        "sweep_interval_s": 0.2,
        "sweep_grace_s": 0.2,
        "runner_slot_ttl_s": 1.0,
        **overrides,
    }
    return Settings(**values)


@pytest.fixture
def stack_overrides() -> dict[str, Any]:
    """Settings a test changes (override through parametrize or a local fixture)."""
    return {}


@pytest.fixture
def stack(tmp_path: Path, stack_overrides: dict[str, Any]) -> Iterator[Stack]:
    """Redis (AOF, appendfsync always), no worker yet, and the API on uvicorn."""
    redis_server = OwnRedis(tmp_path)
    redis_server.start()
    settings = stack_settings(redis_server.url, **stack_overrides)
    workers = Workers(settings)
    api = ApiServer(settings, "127.0.0.1", free_port())
    api.start_in_thread()
    http = httpx.Client(base_url=api.url, timeout=20)
    try:
        yield Stack(redis_server, settings, workers, api, http)
    finally:
        http.close()
        api.stop()
        workers.stop()
        if redis_server.process is not None and redis_server.process.poll() is None:
            redis_server.kill()
