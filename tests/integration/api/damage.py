"""Damage done to a running service's games, straight in Redis, for the HTTP damage tests."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import httpx
import redis

from service.adapters.store.keys import GameKeys
from service.cli.processes import settings_env
from service.shared.settings import Settings


def seated_race(http: httpx.Client, moves: int = 2) -> tuple[str, list[str]]:
    """A race with both seats taken and `moves` moves applied: its id and seat tokens."""
    game_id = http.post("/games", json={"game": "race", "config": {"players": 2}}).json()["game_id"]
    tokens = [http.post(f"/games/{game_id}/seats", json={}).json()["token"] for _ in "ab"]
    for number in range(moves):
        answer = play(http, game_id, tokens, f"m-{number}")
        assert answer.status_code == 200 and answer.json()["status"] == "applied", answer.text
    return game_id, tokens


def play(http: httpx.Client, game_id: str, tokens: list[str], command_id: str) -> httpx.Response:
    """Move the seat to act by one step, waiting for the outcome."""
    acting = http.get(f"/games/{game_id}/turn").json()["to_act"][0]
    return http.post(
        f"/games/{game_id}/commands",
        params={"wait": "10"},
        json={"command_id": command_id, "command": {"type": "Move", "steps": 1}},
        headers={"authorization": f"Bearer {tokens[acting]}"},
    )


def damage(direct: redis.Redis, settings: Settings, game_id: str, kind: str) -> str:
    """Damage one game in Redis; returns what its problem detail must name."""
    keys = GameKeys(settings.key_prefix, game_id)
    match kind:
        case "event-lost":
            direct.xdel(keys.events, "3-1")
            return "event 3 is missing from the stream"
        case "stream-lost":
            direct.delete(keys.events)
            return "the event stream "  # "is missing", or "ends at version N" after N
        case "view-corrupt":
            direct.hset(keys.views, "json:p", b"<html>oops</html>")
            return "the stored view 'json:p' does not decode"
        case "turn-corrupt":
            direct.hset(keys.views, "turn:p", b"\xc1")
            return "the stored view 'turn:p' does not decode"
        case "meta-lost":
            direct.delete(keys.meta)
            return "the game's meta record is missing"
        case "seats-lost":
            direct.delete(keys.seats)
            return "the record of seat 0 is missing"
    raise ValueError(kind)


def damaged_problem(response: httpx.Response) -> dict[str, Any]:
    """The response's problem, checked to be a 500 `game.damaged` one."""
    assert response.status_code == 500, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    problem: dict[str, Any] = response.json()
    assert problem["code"] == "game.damaged", problem
    return problem


def skald_cli(settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `skald ARGS` against the running service's keys."""
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args],
        env=settings_env(settings),
        capture_output=True,
        text=True,
        timeout=120,
    )
