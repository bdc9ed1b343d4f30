"""Damaged games among a load of healthy ones, on the running service (real HTTP server, real
worker, real Redis): every healthy game plays to its end, and the only 5xx answers are the
named `game.damaged` problems of the damaged games."""

from __future__ import annotations

import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from threading import Event

import httpx
import pytest
import redis

from .conftest import LiveService
from .damage import damage, seated_race

pytestmark = pytest.mark.redis

HEALTHY_GAMES = 32
PLAYERS = 8  # client threads playing the healthy games
TARGET = 12  # a race's finish line: about ten moves a game at 3 steps a move
DAMAGES = ["event-lost", "stream-lost", "view-corrupt", "turn-corrupt", "meta-lost", "seats-lost"]
READS = ["/view", "/turn", "/events", "/events?after=1"]


def play_to_the_end(url: str, game_id: str, tokens: list[str]) -> Counter[int]:
    """Play one race to its end through the API; the status codes of every answer."""
    statuses: Counter[int] = Counter()
    with httpx.Client(base_url=url, timeout=30) as http:
        for number in range(200):
            turn = http.get(f"/games/{game_id}/turn")
            statuses[turn.status_code] += 1
            if turn.json()["finished"]:
                return statuses
            acting = turn.json()["to_act"][0]
            answer = http.post(
                f"/games/{game_id}/commands",
                params={"wait": "10"},
                json={"command_id": f"m-{number}", "command": {"type": "Move", "steps": 3}},
                headers={"authorization": f"Bearer {tokens[acting]}"},
            )
            statuses[answer.status_code] += 1
            view = http.get(
                f"/games/{game_id}/view", headers={"authorization": f"Bearer {tokens[acting]}"}
            )
            statuses[view.status_code] += 1
    raise AssertionError(f"race {game_id} did not finish in 200 moves")


def read_damaged(url: str, damaged: dict[str, str], stop: Event) -> list[tuple[str, int, str, str]]:
    """Read the damaged games until told to stop: (game, status, code, detail) of each 5xx."""
    answers = []
    with httpx.Client(base_url=url, timeout=30) as http:
        while not stop.is_set():
            for game_id in damaged:
                for read in READS:
                    response = http.get(f"/games/{game_id}{read}")
                    answers += _failure(game_id, response)
                # Seats are what a join and a token check read
                answers += _failure(game_id, http.post(f"/games/{game_id}/seats", json={}))
    return answers


def _failure(game_id: str, response: httpx.Response) -> list[tuple[str, int, str, str]]:
    if response.status_code < 500:
        return []
    problem = response.json()
    return [(game_id, response.status_code, problem["code"], problem["detail"])]


def test_damaged_games_never_harm_healthy_ones(live_service: LiveService) -> None:
    url, settings = live_service.url, live_service.settings
    direct = redis.Redis.from_url(settings.redis_url)
    with httpx.Client(base_url=url, timeout=30) as http:
        damaged = {}
        for kind in DAMAGES:
            game_id, _ = seated_race(http, moves=2)
            damaged[game_id] = damage(direct, settings, game_id, kind)
        healthy = []
        for _ in range(HEALTHY_GAMES):
            created = http.post(
                "/games", json={"game": "race", "config": {"players": 2, "target": TARGET}}
            ).json()
            game_id = created["game_id"]
            tokens = [http.post(f"/games/{game_id}/seats", json={}).json()["token"] for _ in "ab"]
            healthy.append((game_id, tokens))
    direct.close()
    stop = Event()
    started = time.perf_counter()
    with ThreadPoolExecutor(PLAYERS + 1) as pool:
        reader = pool.submit(read_damaged, url, damaged, stop)
        played = [pool.submit(play_to_the_end, url, g, tokens) for g, tokens in healthy]
        healthy_statuses = sum((future.result() for future in played), Counter())
        stop.set()
        damaged_answers = reader.result()
    elapsed = time.perf_counter() - started
    # Every healthy game finished, and none of them was ever answered a 5xx
    assert all(status < 500 for status in healthy_statuses), healthy_statuses
    # Every 5xx of a damaged game is its own named game.damaged problem
    assert damaged_answers
    seen = set()
    for game_id, status, code, detail in damaged_answers:
        assert (status, code) == (500, "game.damaged"), (game_id, status, code, detail)
        assert damaged[game_id] in detail, (game_id, detail)
        seen.add(game_id)
    # Every damaged game was seen to be damaged by at least one of the reads
    assert seen == set(damaged)
    print(
        f"\n{HEALTHY_GAMES} healthy games ({sum(healthy_statuses.values())} answers, "
        f"{dict(healthy_statuses)}) finished beside {len(damaged)} damaged games "
        f"({len(damaged_answers)} game.damaged answers) in {elapsed:.1f}s"
    )
