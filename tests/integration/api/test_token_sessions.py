"""On the running service: what a player's token opened ends with it. Rotating or revoking the
token closes the WebSockets and server-sent event streams it opened (directly or through a
ticket) and voids the tickets minted with it."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from .conftest import LiveService
from .test_game_socket import asyncapi, hello, receive, socket_url  # noqa: F401 (asyncapi: checks every frame)
from .test_notifications_http import auth, players_game

pytestmark = pytest.mark.redis

ENDED_WITHIN_S = 10.0  # generous: the connections end at once (the channel's message)


def until_closed(socket: ClientConnection) -> tuple[list[dict[str, Any]], int | None]:
    """The frames the server sent until it closed the connection, and its close code."""
    frames = []
    deadline = time.monotonic() + ENDED_WITHIN_S
    with contextlib.suppress(ConnectionClosed):
        while time.monotonic() < deadline:
            frames.append(receive(socket))
    assert socket.close_code is not None, "the socket is still open"
    return frames, socket.close_code


def until_ended(response: httpx.Response) -> None:
    """Read a server-sent event stream until the server ends it (a heartbeat is 15 s away)."""
    deadline = time.monotonic() + ENDED_WITHIN_S
    for _ in response.iter_lines():
        assert time.monotonic() < deadline, "the stream is still open"


@contextlib.contextmanager
def opened_socket(live_service: LiveService, game_id: str, **way_in: str) -> Iterator[Any]:
    with connect(socket_url(live_service, game_id)) as socket:
        hello(socket, **way_in)
        first = receive(socket)
        assert first["type"] in ("event", "view"), first
        yield socket


@pytest.mark.parametrize("change", ["rotate", "revoke"])
def test_a_changed_token_ends_what_it_opened_and_voids_its_tickets(
    live_service: LiveService, change: str
) -> None:
    url = live_service.url
    with (
        httpx.Client(base_url=url, timeout=ENDED_WITHIN_S) as http,
        httpx.Client(base_url=url, timeout=ENDED_WITHIN_S) as streams,
    ):
        game_id, tokens = players_game(http)
        token = tokens[0]
        game_tickets = [
            http.post(f"/v1/games/{game_id}/stream-tickets", headers=auth(token)).json()["ticket"]
            for _ in range(2)
        ]
        feed_ticket = http.post(
            "/v1/players/me/notifications/stream-tickets", headers=auth(token)
        ).json()["ticket"]
        with (
            opened_socket(live_service, game_id, token=token) as by_token,
            opened_socket(live_service, game_id, ticket=game_tickets[0]) as by_ticket,
            streams.stream("GET", f"/v1/games/{game_id}/stream", headers=auth(token)) as game,
            streams.stream(
                "GET", "/v1/players/me/notifications/stream", headers=auth(token)
            ) as feed,
            opened_socket(live_service, game_id, token=tokens[1]) as other_players,
        ):
            assert (game.status_code, feed.status_code) == (200, 200)
            if change == "rotate":
                changed = http.post("/v1/players/me/token", headers=auth(token))
                assert changed.status_code == 201, changed.text
            else:
                changed = http.delete("/v1/players/me/token", headers=auth(token))
                assert changed.status_code == 204, changed.text
            for socket in (by_token, by_ticket):
                frames, code = until_closed(socket)
                assert code == 1008
                problems = [f["problem"]["code"] for f in frames if f["type"] == "problem"]
                assert problems == ["token.revoked"]
            until_ended(game)
            until_ended(feed)
            # The other player's connection is untouched: it still answers a command.
            other_players.send(json.dumps({"type": "command", "command_id": "c", "command": {}}))
            answer = receive(other_players)
            while answer["type"] not in ("outcome", "problem"):
                answer = receive(other_players)
            assert answer.get("command_id", "c") == "c"
        # The tickets minted with the old token open nothing now.
        stale = http.get(f"/v1/games/{game_id}/stream", params={"ticket": game_tickets[1]})
        assert (stale.status_code, stale.json()["code"]) == (401, "ticket.invalid")
        stale = http.get("/v1/players/me/notifications/stream", params={"ticket": feed_ticket})
        assert (stale.status_code, stale.json()["code"]) == (401, "ticket.invalid")
