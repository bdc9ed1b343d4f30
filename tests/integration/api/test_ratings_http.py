"""Ratings over HTTP on a real server and worker: players play rated games, the worker rates
them, and the leaderboard pages through every rated player, best first, with the numbers
OpenSkill gives run directly on the same results; history pages too, bad input is a problem."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from service.core.ratings.results import RatedResult, RatedSeat
from tests.fakes.race import race_config
from tests.unit.core.ratings.direct import fold_directly

from .conftest import LiveService

pytestmark = pytest.mark.redis
PAIRS = [(0, 1), (2, 3), (4, 0), (1, 2), (3, 4), (0, 2), (1, 3)]
WAIT_FOR_RATINGS_S = 30.0  # a bound on waiting for the worker, not a speed assertion


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def play_rated_game(http: httpx.Client, tokens: list[str], n: int) -> dict[str, Any]:
    """A two-player race between the players holding `tokens`, played out; its last turn."""
    created = http.post(
        "/games", json={"game": "race", "config": race_config(2)}, headers=bearer(tokens[0])
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    for seat, token in enumerate(tokens):
        joined = http.post(f"/games/{game_id}/seats", json={"seat": seat}, headers=bearer(token))
        assert joined.status_code == 201, joined.text
    for step in range(300):
        turn = http.get(f"/games/{game_id}/turn", params={"wait": "5"}).json()
        if turn["finished"]:
            return {"game_id": game_id, **turn}
        if not turn["to_act"]:
            time.sleep(0.05)  # the start is still queued
            continue
        seat = turn["to_act"][0]
        mine = http.get(f"/games/{game_id}/turn", headers=bearer(tokens[seat])).json()
        body = {"command_id": f"g{n}-{step}", "command": mine["legal_commands"][0]}
        sent = http.post(
            f"/games/{game_id}/commands",
            json=body,
            params={"wait": "10"},
            headers=bearer(tokens[seat]),
        )
        assert sent.status_code in (200, 202), sent.text
    raise AssertionError("the game did not end")


def pages(http: httpx.Client, path: str, key: str, limit: int) -> list[dict[str, Any]]:
    """Every item of a paged listing, following cursors."""
    items: list[dict[str, Any]] = []
    params: dict[str, Any] = {"limit": limit}
    for _ in range(1000):
        response = http.get(path, params=params)
        assert response.status_code == 200, response.text
        page = response.json()
        assert len(page[key]) <= limit
        items += page[key]
        if page.get("cursor") is None:
            return items
        params = {"limit": limit, "cursor": page["cursor"]}
    raise AssertionError("the cursor never ended")


def test_leaderboard_and_history_page_over_http(live_service: LiveService) -> None:
    with httpx.Client(base_url=live_service.url + "/v1", timeout=30) as http:
        players = [http.post("/players", json={"name": f"rated {n}"}).json() for n in range(5)]
        ids = [p["player_id"] for p in players]
        results = []
        for n, (a, b) in enumerate(PAIRS):
            turn = play_rated_game(http, [players[a]["token"], players[b]["token"]], n)
            ranks = {s["seat"]: s["rank"] for s in turn["outcome"]["scores"]}
            seats = sorted(
                [RatedSeat(0, ids[a], ranks[0]), RatedSeat(1, ids[b], ranks[1])],
                key=lambda s: (s.rank, s.seat),
            )
            low = min(s.rank for s in seats)
            seats = [RatedSeat(s.seat, s.player_id, s.rank - low + 1) for s in seats]
            results.append(RatedResult(turn["game_id"], "race", "standard", seats))
        expected, _ = fold_directly(results)
        # The worker rates each game right after its last move: wait until all are rated
        deadline = time.monotonic() + WAIT_FOR_RATINGS_S
        while True:
            rated = {
                e["player_id"]: e["games"]
                for e in pages(http, "/leaderboards/race", "entries", 100)
            }
            done = all(rated.get(p) == expected["race/standard", p][2] for p in ids)
            if done or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        history = pages(http, f"/players/{ids[0]}/rating-history", "entries", 1)
        # Each player's history: one entry per rated game, newest first, paged one at a time
        played = [r.game_id for r in reversed(results) if ids[0] in {s.player_id for s in r.seats}]
        assert [entry["game_id"] for entry in history] == played
        # The leaderboard, paged two at a time, equals it read whole, best first
        board = pages(http, "/leaderboards/race", "entries", 2)
        whole = http.get("/leaderboards/race", params={"variant": "standard", "limit": 100})
        assert board == whole.json()["entries"]
        assert [e["place"] for e in board] == list(range(1, len(board) + 1))
        assert [e["display"] for e in board] == sorted((e["display"] for e in board), reverse=True)
        ours = {e["player_id"]: e for e in board if e["player_id"] in ids}
        assert set(ours) == set(ids)
        for player_id, entry in ours.items():
            mu, sigma, games = expected["race/standard", player_id]
            assert (entry["mu"], entry["sigma"], entry["games"]) == (mu, sigma, games)
            profile = http.get(f"/players/{player_id}").json()
            assert profile["ratings"] == [
                {
                    "game": "race",
                    "variant": "standard",
                    "display": entry["display"],
                    "mu": mu,
                    "sigma": sigma,
                    "games": games,
                }
            ]
        # Bad input: a problem naming what was wrong
        for path, params, status, code in [
            ("/leaderboards/race", {"cursor": "x1"}, 400, "ratings.bad_cursor"),
            ("/leaderboards/race", {"variant": "Not A Variant"}, 400, "ratings.bad_variant"),
            ("/leaderboards/chess", {}, 404, "game.unknown"),
            ("/players/nobody/rating-history", {}, 404, "player.not_found"),
        ]:
            refused = http.get(path, params=params)
            assert refused.status_code == status, (path, refused.text)
            assert refused.headers["content-type"].startswith("application/problem+json")
            assert refused.json()["code"] == code
        empty = http.get("/leaderboards/race", params={"variant": "rounds-3"}).json()
        assert empty == {"game": "race", "variant": "rounds-3", "entries": [], "cursor": None}
