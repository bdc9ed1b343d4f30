"""A client that goes away from a server-sent event stream, even before its first message,
ends it quietly: its subscription is released when the response ends, nothing is left for
the garbage collector to close (which asyncio logged as an error)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from .conftest import Api

pytestmark = pytest.mark.anyio


async def open_and_leave(api: Api, path: str) -> list[dict[str, Any]]:
    """The whole ASGI app, called as uvicorn does for a client that asks for a stream and has
    gone before the first message; what the app sent."""
    app: Any = api.client.app
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "",
        "query_string": b"", "headers": [], "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80), "state": {},
    }  # fmt: skip
    await app(scope, receive, send)
    return sent


async def test_a_stream_left_before_its_first_message_releases_its_subscription_quietly(
    log_output: io.StringIO, api: Api
) -> None:
    game_id, _ = await api.seated_game()
    notifier = api.skald.reads.notifier
    for _ in range(3):
        sent = await open_and_leave(api, f"/v1/games/{game_id}/stream")
        assert sent[0]["status"] == 200
        # Released as the response ends, not whenever the garbage collector comes
        assert notifier.listeners(game_id) == 0
    logs = [json.loads(line) for line in log_output.getvalue().splitlines()]
    assert not [line for line in logs if line["level"] in ("warning", "error", "critical")]
    # And the game's stream limit counts none of them: a new stream opens
    opened = await open_and_leave(api, f"/v1/games/{game_id}/stream")
    assert opened[0]["status"] == 200
