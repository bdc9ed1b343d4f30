"""Every bad request gets a clear 4xx problem from the running service, and no stream moves."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from .conftest import LiveService

pytestmark = pytest.mark.redis


@dataclass
class SeatedGame:
    """A race with both seats taken; `acting` is the seat whose turn it is."""

    game_id: str
    tokens: list[str]
    acting: int
    http: httpx.Client

    def auth(self, seat: int) -> dict[str, str]:
        return {"authorization": f"Bearer {self.tokens[seat]}"}

    def record(self) -> tuple[int, list[dict[str, Any]]]:
        """What the stream holds (as the public sees it): its version and events."""
        page = self.http.get(f"/games/{self.game_id}/events", params={"limit": "1000"}).json()
        return page["last_version"], page["events"]


@pytest.fixture(scope="module")
def game(live_service: LiveService) -> Iterator[SeatedGame]:
    with httpx.Client(base_url=live_service.url, timeout=15) as http:
        created = http.post("/games", json={"game": "race", "config": {"players": 2}}).json()
        game_id = created["game_id"]
        tokens = [http.post(f"/games/{game_id}/seats", json={}).json()["token"] for _ in "ab"]
        acting = http.get(f"/games/{game_id}/turn").json()["to_act"][0]
        yield SeatedGame(game_id, tokens, acting, http)


def command(steps: Any = 1, command_id: str = "c-1", **extra: Any) -> dict[str, Any]:
    return {"command_id": command_id, "command": {"type": "Move", "steps": steps, **extra}}


CASES: list[tuple[str, Any, int, str]] = [
    # (name, request builder, status, code)
    ("malformed JSON", lambda g: ("commands", {"content": b'{"command_id": '}, g.acting), 400,
     "request.malformed"),
    ("unknown envelope field", lambda g: ("commands", {"json": {**command(), "seat": 1}},
     g.acting), 400, "request.invalid"),
    ("wrong envelope type", lambda g: ("commands", {"json": {"command_id": 5, "command": {}}},
     g.acting), 400, "request.invalid"),
    ("unknown command field", lambda g: ("commands", {"json": command(dice=6)}, g.acting), 422,
     "command.bad_payload"),
    ("wrong command type", lambda g: ("commands", {"json": command(steps="3")}, g.acting), 422,
     "command.bad_payload"),
    ("oversized body", lambda g: ("commands", {"json": command(pad="x" * 70_000)}, g.acting),
     413, "request.too_large"),
    ("no token", lambda g: ("commands", {"json": command()}, None), 401, "token.missing"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "build", "status", "code"), CASES, ids=[c[0] for c in CASES])
def test_bad_commands_are_refused_and_change_nothing(
    game: SeatedGame, name: str, build: Any, status: int, code: str
) -> None:
    before = game.record()
    _, request, seat = build(game)
    headers = game.auth(seat) if seat is not None else {}
    if "content" in request:
        headers["content-type"] = "application/json"
    response = game.http.post(f"/games/{game.game_id}/commands", headers=headers, **request)
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == code
    assert response.json()["detail"]
    assert game.record() == before


def test_a_command_out_of_turn_is_refused_by_the_rules_and_changes_nothing(
    game: SeatedGame,
) -> None:
    before = game.record()
    waiting = 1 - game.acting
    response = game.http.post(
        f"/games/{game.game_id}/commands",
        params={"wait": "5"},
        json=command(command_id="out-of-turn"),
        headers=game.auth(waiting),
    )
    assert response.status_code == 422
    assert response.json()["code"] == "turn.not_yours"
    assert game.record() == before


def test_an_unknown_game_is_404(game: SeatedGame) -> None:
    response = game.http.post(
        "/games/nope/commands", json=command(), headers=game.auth(game.acting)
    )
    assert (response.status_code, response.json()["code"]) == (404, "game.not_found")


def test_another_seats_view_is_forbidden(game: SeatedGame) -> None:
    other = 1 - game.acting
    response = game.http.get(
        f"/games/{game.game_id}/view", params={"seat": str(other)}, headers=game.auth(game.acting)
    )
    assert (response.status_code, response.json()["code"]) == (403, "seat.forbidden")
