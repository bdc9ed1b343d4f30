"""The API over the real facade on fakeredis, with drain runners run by the test itself.

`api.client` is an async HTTP client of the whole ASGI app (logging and metrics included);
`await api.drain()` plays the worker: it applies every command waiting in an inbox.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import fakeredis
import pytest
from litestar.testing import AsyncTestClient

from domain.games import unregister
from service import bootstrap
from service.api import create_app
from service.core.pipeline.runner import DrainRunner
from service.facade.skald import Skald
from service.shared.settings import Settings
from tests.fakes.race import race_config, register_race
from tests.fakes.scheduler import RecordingScheduler

PREFIX = "api-unit:"


@dataclass
class Api:
    """The app under test and the means to act as its worker."""

    client: AsyncTestClient[Any]
    skald: Skald
    scheduler: RecordingScheduler
    runner: DrainRunner
    settings: Settings
    app: Any  # the ASGI application under test

    async def drain(self) -> int:
        """Run every scheduled runner job (and the successors they schedule); the number run."""
        return await self.scheduler.run_all(self.runner)

    async def new_game(self, players: int = 2, target: int = 12) -> str:
        """A race game created over HTTP; its id."""
        response = await self.client.post(
            "/games", json={"game": "race", "config": race_config(players, target)}
        )
        assert response.status_code == 201, response.text
        game_id: str = response.json()["game_id"]
        return game_id

    async def seated_game(self, players: int = 2, target: int = 12) -> tuple[str, list[str]]:
        """A race game with every seat taken; its id and the seats' tokens, by seat."""
        game_id = await self.new_game(players, target)
        tokens = []
        for _ in range(players):
            response = await self.client.post(f"/games/{game_id}/seats", json={})
            assert response.status_code == 201, response.text
            tokens.append(response.json()["token"])
        return game_id, tokens


def bearer(token: str) -> dict[str, str]:
    """The Authorization header of a seat token."""
    return {"authorization": f"Bearer {token}"}


@pytest.fixture
def settings_overrides() -> dict[str, Any]:
    """Settings a test changes (override this fixture, e.g. through parametrize)."""
    return {}


@pytest.fixture
def settings(settings_overrides: dict[str, Any]) -> Settings:
    # Runners end as soon as they catch up: tests run them by hand, one job after another.
    # History in threads: each test's app would otherwise start its own worker processes.
    overrides = {"runner_idle_s": 0.0, "history_processes": 0, **settings_overrides}
    return Settings(redis_url="redis://fake/0", key_prefix=PREFIX, max_body_bytes=4096, **overrides)


@pytest.fixture
async def api(settings: Settings) -> AsyncIterator[Api]:
    register_race()
    redis = fakeredis.aioredis.FakeRedis(server=fakeredis.FakeServer())
    scheduler = RecordingScheduler()
    skald = bootstrap.skald(settings, redis, scheduler)
    runner = bootstrap.drain_runner(settings, redis, skald.store, scheduler)

    async def connect(_: Settings) -> Skald:
        return skald

    app = create_app(settings, connect)
    async with AsyncTestClient(app) as client:
        yield Api(client, skald, scheduler, runner, settings, app)
    unregister("race")


async def turn(api: Api, game_id: str, token: str | None = None) -> dict[str, Any]:
    """GET /turn as a seat (or a spectator)."""
    response = await api.client.get(
        f"/games/{game_id}/turn", headers=bearer(token) if token else {}
    )
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


async def stream_version(api: Api, game_id: str) -> int:
    """The game's current version, as the events endpoint reports it."""
    response = await api.client.get(f"/games/{game_id}/events", params={"after": "0"})
    assert response.status_code == 200, response.text
    version: int = response.json()["last_version"]
    return version
