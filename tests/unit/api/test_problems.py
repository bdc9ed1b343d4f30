"""Every error is an RFC 9457 problem with a stable code and a clear detail."""

from __future__ import annotations

from typing import Any

import pytest
import redis.asyncio
from litestar.testing import AsyncTestClient

from service.adapters.embedded_redis import free_port
from service.api import create_app
from service.facade.read_side import ReadSide
from service.facade.skald import Skald
from service.shared.settings import Settings

from .conftest import Api, stream_version

pytestmark = pytest.mark.anyio
PROBLEM_FIELDS = {"type", "title", "status", "detail", "code", "request_id"}


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    """The response is a problem+json of this status and code; its body."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem: dict[str, Any] = response.json()
    assert set(problem) >= PROBLEM_FIELDS
    assert (problem["status"], problem["code"]) == (status, code)
    assert problem["detail"]
    assert problem["request_id"] == response.headers["x-request-id"]
    return problem


@pytest.mark.parametrize(
    ("body", "code", "detail_mentions"),
    [
        (b'{"game": "race", "config": {', "request.malformed", "malformed"),
        (b"\xff\xfe", "request.malformed", "malformed"),
        (b'{"game": "race", "config": {}, "colour": "red"}', "request.invalid", "`colour`"),
        (b'{"game": 7, "config": {}}', "request.invalid", "`game`"),
        (b'{"game": "race"}', "request.invalid", "`config`"),
        (b"[]", "request.invalid", "object"),
        (b"", "request.invalid", "body is required"),
    ],
    ids=["truncated", "not utf-8", "unknown field", "wrong type", "missing", "array", "empty"],
)
async def test_bad_bodies_are_400_problems_naming_the_fault(
    api: Api, body: bytes, code: str, detail_mentions: str
) -> None:
    response = await api.client.post(
        "/games", content=body, headers={"content-type": "application/json"}
    )
    problem = assert_problem(response, 400, code)
    assert detail_mentions in problem["detail"]


async def test_a_bad_game_config_is_a_422_from_the_game(api: Api) -> None:
    response = await api.client.post(
        "/games", json={"game": "race", "config": {"players": 9, "lanes": 2}}
    )
    assert_problem(response, 422, "game.bad_config")


async def test_an_unknown_game_name_is_refused(api: Api) -> None:
    response = await api.client.post("/games", json={"game": "chess", "config": {"players": 2}})
    problem = assert_problem(response, 422, "game.unknown")
    assert "race" in problem["detail"]  # names the games that exist


async def test_an_oversized_body_is_413_and_changes_nothing(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    before = await stream_version(api, game_id)
    padding = "x" * (api.settings.max_body_bytes + 1)
    response = await api.client.post(
        f"/games/{game_id}/commands",
        json={"command_id": "c", "command": {"type": "Move", "steps": 1, "pad": padding}},
        headers={"authorization": f"Bearer {tokens[0]}"},
    )
    problem = assert_problem(response, 413, "request.too_large")
    assert str(api.settings.max_body_bytes) in problem["detail"]
    assert await stream_version(api, game_id) == before


async def test_unknown_paths_and_methods_are_problems(api: Api) -> None:
    assert_problem(await api.client.get("/nowhere"), 404, "route.not_found")
    response = await api.client.delete("/games")
    assert_problem(response, 405, "method.not_allowed")
    assert "GET" in response.headers["allow"]


async def test_a_bad_query_parameter_is_a_400_naming_it(api: Api) -> None:
    game_id, _ = await api.seated_game()
    response = await api.client.get(f"/games/{game_id}/events", params={"after": "-1"})
    problem = assert_problem(response, 400, "request.invalid")
    assert "`after`" in problem["detail"]


async def test_redis_down_is_a_503_with_retry_after() -> None:
    # Given an API whose Redis does not answer (nothing listens on the port)
    settings = Settings(redis_url=f"redis://127.0.0.1:{free_port()}/0")
    async with AsyncTestClient(create_app(settings)) as client:
        # When a client reads the lobby, and a probe asks for readiness
        lobby = await client.get("/games")
        ready = await client.get("/readyz")
        alive = await client.get("/healthz")
    # Then both say 503 and when to retry; liveness does not depend on Redis
    assert_problem(lobby, 503, "redis.unavailable")
    assert int(lobby.headers["retry-after"]) >= 1
    assert ready.status_code == 503
    assert ready.json()["status"] == "unavailable"
    assert int(ready.headers["retry-after"]) >= 1
    assert alive.status_code == 200


class BrokenReads(ReadSide):
    """A read side whose lobby fails in a way nobody planned for."""

    def __init__(self) -> None:
        """No connections: nothing here reaches Redis."""

    async def open_games(self, game: str | None, limit: int) -> list[Any]:
        raise RuntimeError("secret internals")


class BrokenFacade(Skald):
    """A facade whose lobby fails in a way nobody planned for."""

    def __init__(self) -> None:
        """No connections: nothing here reaches Redis."""
        self.settings = Settings(redis_url="redis://x")
        self.reads = BrokenReads()

    async def close(self) -> None:
        """Nothing to close."""


async def test_an_unexpected_error_is_a_500_problem_that_leaks_nothing() -> None:
    async def connect(_: Settings) -> Skald:
        return BrokenFacade()

    async with AsyncTestClient(create_app(Settings(redis_url="redis://x"), connect)) as client:
        response = await client.get("/games")
    problem = assert_problem(response, 500, "internal.error")
    assert "secret internals" not in response.text
    assert "request id" in problem["detail"]


class TornReads(BrokenReads):
    """A read side whose lobby meets a connection torn down under it, raised by redis-py's own
    code as an AttributeError (a Redis Cluster failing over), past any facade guard."""

    async def open_games(self, game: str | None, limit: int) -> list[Any]:
        await redis.asyncio.Connection()._send_packed_command([b"PING"])
        return []


class TornFacade(BrokenFacade):
    def __init__(self) -> None:
        """No connections but the torn one."""
        super().__init__()
        self.reads = TornReads()


async def test_a_connection_torn_down_under_a_request_is_a_503_not_a_500() -> None:
    async def connect(_: Settings) -> Skald:
        return TornFacade()

    async with AsyncTestClient(create_app(Settings(redis_url="redis://x"), connect)) as client:
        response = await client.get("/games")
    # (the code of an outage no facade guard caught: the store, not a named part of it)
    assert_problem(response, 503, "service.unavailable")
    assert int(response.headers["retry-after"]) >= 1
