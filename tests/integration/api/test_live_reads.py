"""On the running service: ETags and 304, server-sent events, idempotent retries."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import jsonpatch
import pytest

from tests.asyncapi_messages import STREAM, AsyncApiMessages

from .conftest import LiveService

pytestmark = pytest.mark.redis


def new_seated_race(http: httpx.Client) -> tuple[str, list[str], int]:
    """A race with both seats taken: id, tokens, and the seat to act."""
    game_id = http.post("/games", json={"game": "race", "config": {"players": 2}}).json()["game_id"]
    tokens = [http.post(f"/games/{game_id}/seats", json={}).json()["token"] for _ in "ab"]
    acting = http.get(f"/games/{game_id}/turn").json()["to_act"][0]
    return game_id, tokens, acting


def move(http: httpx.Client, game_id: str, token: str, command_id: str) -> httpx.Response:
    return http.post(
        f"/games/{game_id}/commands",
        params={"wait": "5"},
        json={"command_id": command_id, "command": {"type": "Move", "steps": 1}},
        headers={"authorization": f"Bearer {token}"},
    )


def test_304_while_the_view_is_unchanged_then_the_new_view(http: httpx.Client) -> None:
    game_id, tokens, acting = new_seated_race(http)
    auth = {"authorization": f"Bearer {tokens[acting]}"}
    first = http.get(f"/games/{game_id}/view", headers=auth)
    etag = first.headers["etag"]
    unchanged = http.get(f"/games/{game_id}/view", headers={**auth, "if-none-match": etag})
    assert unchanged.status_code == 304
    assert move(http, game_id, tokens[acting], "m-1").status_code == 200
    changed = http.get(f"/games/{game_id}/view", headers={**auth, "if-none-match": etag})
    assert changed.status_code == 200
    assert changed.headers["etag"] != etag
    assert changed.json()["version"] > first.json()["version"]


def sse_events(response: httpx.Response) -> Iterator[dict[str, str]]:
    """The events of a text/event-stream response, as field dicts (comments skipped)."""
    fields: dict[str, str] = {}
    for line in response.iter_lines():
        if not line:
            if fields:
                yield fields
            fields = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")


def test_the_event_stream_pushes_the_view_after_a_move(
    http: httpx.Client, live_service: LiveService, asyncapi_messages: AsyncApiMessages
) -> None:
    # Given a seat following its game's stream
    game_id, tokens, acting = new_seated_race(http)
    auth = {"authorization": f"Bearer {tokens[acting]}"}
    with (
        httpx.Client(base_url=live_service.url, timeout=10) as streaming,
        streaming.stream("GET", f"/games/{game_id}/stream", headers=auth) as response,
    ):
        assert response.headers["content-type"].startswith("text/event-stream")
        views = (e for e in sse_events(response) if e.get("event") in ("view", "patch"))
        first = next(views)
        # When the seat moves
        applied = move(http, game_id, tokens[acting], "m-1").json()
        # Then the stream brings the seat's view at the new version (whole, or as the change
        # to the view it sent before)
        update = next(views)
    for message in (first, update):  # as the AsyncAPI document declares them
        asyncapi_messages.check(STREAM, message["event"], json.loads(message["data"]))
    first_view: dict[str, Any] = json.loads(first["data"])
    assert first["event"] == "view"
    if update["event"] == "patch":
        new_view: dict[str, Any] = jsonpatch.apply_patch(first_view, json.loads(update["data"]))
    else:
        new_view = json.loads(update["data"])
    assert new_view == http.get(f"/games/{game_id}/view", headers=auth).json()
    assert first_view["seat"] == new_view["seat"] == acting
    assert int(update["id"]) == new_view["version"] == applied["last_version"]
    assert new_view["version"] > first_view["version"]


def test_the_same_command_sent_three_times_at_once_applies_once(http: httpx.Client) -> None:
    game_id, tokens, acting = new_seated_race(http)
    before = http.get(f"/games/{game_id}/events").json()["last_version"]
    # When three clients send the same command at the same time
    with ThreadPoolExecutor(3) as pool:
        replies = list(pool.map(lambda _: move(http, game_id, tokens[acting], "dup"), range(3)))
    # Then every reply names the one outcome, and the stream grew by that command only
    outcomes = [reply.json() for reply in replies]
    assert all(reply.status_code == 200 for reply in replies), outcomes
    assert outcomes[0] == outcomes[1] == outcomes[2]
    assert outcomes[0]["first_version"] == before + 1
    after = http.get(f"/games/{game_id}/events").json()["last_version"]
    assert after == outcomes[0]["last_version"]


def test_a_turn_read_with_wait_answers_once_the_game_moves_past_after(
    http: httpx.Client,
) -> None:
    # Given a seat waiting on /turn for the version after the current one
    game_id, tokens, acting = new_seated_race(http)
    waiter = tokens[1 - acting]
    now = http.get(f"/games/{game_id}/turn").json()["version"]
    with ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(
            http.get,
            f"/games/{game_id}/turn",
            params={"after": now, "wait": 10},
            headers={"authorization": f"Bearer {waiter}"},
        )
        # When the other seat moves
        moved = move(http, game_id, tokens[acting], "m-wait")
        assert moved.status_code == 200
        answered = waiting.result(timeout=15).json()
    # Then the wait answers the turn at or past the move, for the waiting seat
    assert answered["version"] >= moved.json()["last_version"] > now
    assert answered["seat"] == 1 - acting


def test_a_turn_read_with_wait_and_no_change_answers_the_turn_as_it_stands(
    http: httpx.Client,
) -> None:
    game_id, _, _ = new_seated_race(http)
    now = http.get(f"/games/{game_id}/turn").json()
    waited = http.get(f"/games/{game_id}/turn", params={"after": now["version"], "wait": 0.2})
    assert waited.status_code == 200 and waited.json() == now
    too_long = http.get(f"/games/{game_id}/turn", params={"wait": 10_000})
    assert too_long.status_code == 400 and too_long.json()["code"] == "request.wait_too_long"


def test_a_finished_games_turn_says_finished_in_its_phase(http: httpx.Client) -> None:
    game_id, tokens, _ = new_seated_race(http)
    turn = http.get(f"/games/{game_id}/turn").json()
    moves = 0
    while not turn["finished"]:
        seat = turn["to_act"][0]
        assert move(http, game_id, tokens[seat], f"m-{moves}").status_code == 200
        moves += 1
        turn = http.get(f"/games/{game_id}/turn").json()
    assert turn["phase"] == "finished" and turn["outcome"] is not None
