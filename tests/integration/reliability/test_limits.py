"""The API's limits on a real server, each refused with a clear problem and changing nothing:
body size (413), commands per seat (429 with Retry-After), wait bounds (400), and open
server-sent event streams per game (429 with Retry-After)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .conftest import Stack

pytestmark = pytest.mark.redis

RATE = 5
LIMITS: dict[str, Any] = {
    "max_body_bytes": 2048,
    "rate_per_seat": RATE,
    "rate_window_s": 60.0,
    "sse_per_game": 2,
}


@pytest.fixture
def stack_overrides() -> dict[str, Any]:
    return LIMITS


def assert_problem(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    problem: dict[str, Any] = response.json()
    assert problem["code"] == code and problem["detail"]
    return problem


def test_an_oversized_body_is_a_413_and_changes_nothing(stack: Stack) -> None:
    game_id, tokens = stack.seated_game()
    before = stack.version(game_id)
    padded = {"command_id": "big", "command": {"type": "Move", "steps": 1}, "pad": "x" * 4096}
    reply = stack.http.post(
        f"/games/{game_id}/commands", json=padded, headers=stack.bearer(tokens[0])
    )
    problem = assert_problem(reply, 413, "request.too_large")
    assert str(LIMITS["max_body_bytes"]) in problem["detail"]
    assert stack.version(game_id) == before


def test_a_seat_over_its_command_rate_gets_429_with_retry_after(stack: Stack) -> None:
    # Given a seat that sends commands in a loop (no worker: they stay queued)
    game_id, tokens = stack.seated_game()
    headers = stack.bearer(tokens[0])
    replies = [
        stack.http.post(
            f"/games/{game_id}/commands",
            json={"command_id": f"flood-{n}", "command": {"type": "Move", "steps": 1}},
            headers=headers,
        )
        for n in range(RATE + 3)
    ]
    # Then the first ones are queued, the rest refused with a 429 saying when to retry
    assert [r.status_code for r in replies[:RATE]] == [202] * RATE
    for reply in replies[RATE:]:
        assert_problem(reply, 429, "seat.rate_limited")
        assert int(reply.headers["retry-after"]) >= 1
    # And the other seat is not held back by it
    other = stack.http.post(
        f"/games/{game_id}/commands",
        json={"command_id": "other", "command": {"type": "Move", "steps": 1}},
        headers=stack.bearer(tokens[1]),
    )
    assert other.status_code == 202


def test_a_wait_beyond_the_bound_is_a_400(stack: Stack) -> None:
    game_id, tokens = stack.seated_game()
    too_long = stack.settings.max_wait_s + 1
    reply = stack.http.post(
        f"/games/{game_id}/commands",
        params={"wait": too_long},
        json={"command_id": "w", "command": {"type": "Move", "steps": 1}},
        headers=stack.bearer(tokens[0]),
    )
    assert_problem(reply, 400, "request.wait_too_long")
    negative = stack.http.get(
        f"/games/{game_id}/commands/w", params={"wait": -1}, headers=stack.bearer(tokens[0])
    )
    assert negative.status_code == 400


def test_open_event_streams_per_game_are_capped(stack: Stack) -> None:
    # Given a game with as many open streams as the cap allows
    game_id, _ = stack.seated_game()
    with httpx.Client(base_url=stack.api.url, timeout=10) as streams:
        opened = [streams.stream("GET", f"/games/{game_id}/stream") for _ in range(2)]
        responses = [context.__enter__() for context in opened]
        try:
            assert [r.status_code for r in responses] == [200, 200]
            # When one more is asked for
            refused = stack.http.get(f"/games/{game_id}/stream")
            # Then it is a 429 problem with Retry-After
            assert_problem(refused, 429, "stream.too_many")
            assert int(refused.headers["retry-after"]) >= 1
        finally:
            for context in opened:
                context.__exit__(None, None, None)
