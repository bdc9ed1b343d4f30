"""A client that goes away from a server-sent event stream, even before its first message,
ends it quietly: its subscription is released when the response ends, nothing is left for
the garbage collector to close (which asyncio logged as an error).

Every request here goes out on the test's own event loop (httpx's ASGI transport and direct
ASGI calls): the app's test client serves requests from a loop of its own in another thread,
and one Notifier shared by two loops loses wake-ups (an asyncio event set from the wrong
thread), which hung an earlier version of this test."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.fakes.race import race_config

from .conftest import Api

pytestmark = pytest.mark.anyio


@pytest.fixture
async def http(api: Api) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client of the app on the test's event loop."""
    transport = httpx.ASGITransport(app=api.app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        yield client


async def open_and_leave(api: Api, path: str, token: str) -> list[dict[str, Any]]:
    """The whole ASGI app, called as uvicorn does for a client that asks for a stream and has
    gone before the first message; what the app sent."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "",
        "query_string": b"", "headers": [(b"authorization", f"Bearer {token}".encode())],
        "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80), "state": {},
    }  # fmt: skip
    await api.app(scope, receive, send)
    return sent


def complaints(log_output: io.StringIO) -> list[dict[str, Any]]:
    """The log lines at warning level or above."""
    lines = [json.loads(line) for line in log_output.getvalue().splitlines()]
    return [line for line in lines if line["level"] in ("warning", "error", "critical")]


@pytest.mark.parametrize("settings_overrides", [{"sse_per_game": 2}])
async def test_a_game_stream_left_before_its_first_message_releases_its_subscription(
    log_output: io.StringIO, api: Api, http: httpx.AsyncClient
) -> None:
    created = await http.post("/games", json={"game": "race", "config": race_config(2)})
    game_id = created.json()["game_id"]
    token = (await http.post(f"/games/{game_id}/seats", json={})).json()["token"]
    notifier = api.skald.reads.notifier
    # More streams than the game allows at once: each one left frees its place
    for _ in range(5):
        sent = await open_and_leave(api, f"/v1/games/{game_id}/stream", token)
        assert sent[0]["status"] == 200
        # Released as the response ends, not whenever the garbage collector comes
        assert notifier.listeners(game_id) == 0
    assert not complaints(log_output)


@pytest.mark.parametrize("settings_overrides", [{"sse_per_game": 2}])
async def test_a_notification_stream_left_before_its_first_message_is_released(
    log_output: io.StringIO, api: Api, http: httpx.AsyncClient
) -> None:
    player = (await http.post("/players", json={"name": "Ada"})).json()
    path = "/v1/players/me/notifications/stream"
    for _ in range(5):
        sent = await open_and_leave(api, path, player["token"])
        assert sent[0]["status"] == 200
        assert api.skald.notifications.streams_open(player["player_id"]) == 0
        # Nor does its token's watch stay subscribed
        assert api.skald.reads.notifier.channels() == []
    assert not complaints(log_output)
