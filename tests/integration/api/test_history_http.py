"""Replay and fairness over HTTP for a game the real worker applied, on the real Redis."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from domain.engine import fold
from domain.games import get_game
from service.cli.demo_command import play

from .conftest import LiveService
from .test_whole_game import SEED, as_json, play_in_process

pytestmark = pytest.mark.redis


@pytest.mark.parametrize(
    ("game_name", "config"),
    [
        ("race", {"players": 2}),
        ("looot", {"players": 2}),
        ("landnam", {"players": 3, "max_rounds": 2}),  # dice, explorations, fate draws
    ],
)
def test_a_finished_game_replays_at_every_version_and_proves_its_draws(
    live_service: LiveService, game_name: str, config: dict[str, Any]
) -> None:
    # Given a game played to its end by bots through the API and the worker
    with live_service.client() as client:
        game_id, _, _ = play(client, game_name, config, SEED)
        fairness = client.http.get(f"/games/{game_id}/fairness").json()
        last = client.http.get(f"/games/{game_id}/replay").json()["last_version"]
        frames = [
            client.http.get(f"/games/{game_id}/replay", params={"at": str(at)}).json()
            for at in range(2, last + 1)
        ]
    # Then the seed is proved: it matches the commitment and re-derives every event
    assert fairness["status"] == "fair", fairness
    seed = bytes.fromhex(fairness["seed_hex"])
    assert hashlib.sha256(seed).hexdigest() == fairness["seed_sha256"]
    assert fairness["events_rederived"] == last - 2
    # And the public view at each version is that of the same game played in-process
    game = get_game(game_name)
    _, events = play_in_process(game_name, config, seed)
    for frame in frames:
        state = fold(game, events[: min(frame["version"], last - 1) - 1])
        assert frame["view"] == as_json(game.view(state, None)), frame["version"]
