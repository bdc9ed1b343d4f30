"""Notifications over HTTP, with a real worker projecting them: the feed paged with `after=`,
one SSE stream per player across their games (ticket, Last-Event-ID resume), bad input
refused, and no notification carrying anything but public facts."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
import pytest
from httpx_sse import connect_sse

from .conftest import LiveService

pytestmark = pytest.mark.redis

RACE = {"game": "race", "config": {"players": 2, "target": 12}}
# Everything a notification may carry: public facts only.
ALLOWED_FIELDS = {
    "id",
    "game_id",
    "game",
    "kind",
    "version",
    "seat",
    "rank",
    "deadline_ms",
    "rematch_id",
}


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def feed(http: httpx.Client, token: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    after = "0"
    while True:
        page = http.get(
            "/v1/players/me/notifications", params={"after": after, "limit": 4}, headers=auth(token)
        )
        assert page.status_code == 200, page.text
        body = page.json()
        if not body["notifications"]:
            return found
        found += [entry["notification"] for entry in body["notifications"]]
        after = body["next"]


def wait_for(http: httpx.Client, token: str, kind: str, game_id: str) -> list[dict[str, Any]]:
    for _ in range(400):
        got = feed(http, token)
        if any(n["kind"] == kind and n["game_id"] == game_id for n in got):
            return got
        time.sleep(0.05)
    raise AssertionError(f"no {kind} in {feed(http, token)}")


def play_out(http: httpx.Client, game_id: str, tokens: list[str]) -> None:
    for step in range(200):
        turn = http.get(f"/v1/games/{game_id}/turn").json()
        if turn["finished"]:
            return
        seat = turn["to_act"][0]
        mine = http.get(f"/v1/games/{game_id}/turn", headers=auth(tokens[seat])).json()
        sent = http.post(
            f"/v1/games/{game_id}/commands",
            params={"wait": 5},
            json={"command_id": f"m{step}", "command": mine["legal_commands"][0]},
            headers=auth(tokens[seat]),
        )
        assert sent.status_code in (200, 202), sent.text
    raise AssertionError("the game did not finish")


def players_game(http: httpx.Client) -> tuple[str, list[str]]:
    tokens = [
        http.post("/v1/players", json={"name": name}).json()["token"] for name in ("Ada", "Bo")
    ]
    game_id = http.post("/v1/games", json=RACE, headers=auth(tokens[0])).json()["game_id"]
    for seat, token in enumerate(tokens):
        joined = http.post(f"/v1/games/{game_id}/seats", json={"seat": seat}, headers=auth(token))
        assert joined.status_code == 201, joined.text
    return game_id, tokens


def follow(
    url: str,
    params: dict[str, str],
    headers: dict[str, str],
    until: str,
    into: list[tuple[str, dict[str, Any]]],
) -> None:
    with (
        httpx.Client(base_url=url, timeout=30) as http,
        connect_sse(
            http, "GET", "/v1/players/me/notifications/stream", params=params, headers=headers
        ) as source,
    ):
        for message in source.iter_sse():
            into.append((message.id, json.loads(message.data)))
            if json.loads(message.data)["kind"] == until:
                return


def test_a_player_follows_a_whole_game_on_one_stream_and_the_feed_agrees(
    live_service: LiveService,
) -> None:
    with httpx.Client(base_url=live_service.url, timeout=15) as http:
        game_id, tokens = players_game(http)
        wait_for(http, tokens[0], "game_started", game_id)
        ticket = http.post(
            "/v1/players/me/notifications/stream-tickets", headers=auth(tokens[0])
        ).json()["ticket"]
        streamed: list[tuple[str, dict[str, Any]]] = []
        reader = threading.Thread(
            target=follow,
            args=(live_service.url, {"ticket": ticket}, {}, "game_finished", streamed),
        )
        reader.start()
        time.sleep(0.5)  # let the stream subscribe before the game moves on
        play_out(http, game_id, tokens)
        reader.join(30)
        assert not reader.is_alive()
        kept = wait_for(http, tokens[0], "game_finished", game_id)
        streamed_ids = [n["id"] for _, n in streamed]
        assert streamed_ids == [n["id"] for n in kept][-len(streamed_ids) :]
        assert streamed[-1][1]["kind"] == "game_finished"
        # Resuming after the first streamed notification gives the rest again, in order.
        again: list[tuple[str, dict[str, Any]]] = []
        follow(
            live_service.url,
            {},
            {**auth(tokens[0]), "last-event-id": streamed[0][0]},
            "game_finished",
            again,
        )
        assert [n["id"] for _, n in again] == streamed_ids[1:]
        for token in tokens:
            for notification in feed(http, token):
                assert set(notification) <= ALLOWED_FIELDS
                assert {"id", "game_id", "kind", "version", "seat"} <= set(notification)


def test_bad_cursors_tickets_and_tokens_are_refused(live_service: LiveService) -> None:
    with httpx.Client(base_url=live_service.url, timeout=15) as http:
        token = http.post("/v1/players", json={"name": "Cy"}).json()["token"]
        bad = http.get("/v1/players/me/notifications", params={"after": "x"}, headers=auth(token))
        assert bad.status_code == 400 and "after" in bad.json()["detail"]
        assert http.get("/v1/players/me/notifications").status_code == 401
        used = http.get("/v1/players/me/notifications/stream", params={"ticket": "nope"})
        assert used.status_code == 401 and used.json()["code"] == "ticket.invalid"
        resumed = http.get(
            "/v1/players/me/notifications/stream",
            headers={**auth(token), "last-event-id": "latest"},
        )
        assert resumed.status_code == 400
