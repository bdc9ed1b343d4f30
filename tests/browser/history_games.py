"""Whole games played over the API (every seat choosing at random among its legal commands),
for the pages that read a game's history: replay and audit."""

from __future__ import annotations

import random
from typing import Any

import httpx


def play_over_api(url: str, game: str, players: int, seed: int) -> str:
    """Create a game, take every seat, play it to the end; its id."""
    chooser = random.Random(seed)
    with httpx.Client(base_url=f"{url}/v1", timeout=30) as http:
        created = http.post("/games", json={"game": game, "config": {"players": players}})
        assert created.status_code == 201, created.text
        game_id: str = created.json()["game_id"]
        tokens = []
        for seat in range(players):
            joined = http.post(f"/games/{game_id}/seats", json={"name": f"Bot {seat}"})
            assert joined.status_code == 201, joined.text
            tokens.append(joined.json()["token"])
        for move in range(5000):
            turn = http.get(f"/games/{game_id}/turn").json()
            if turn["finished"]:
                return game_id
            seat = turn["to_act"][0]
            auth = {"authorization": f"Bearer {tokens[seat]}"}
            legal: list[Any] = http.get(f"/games/{game_id}/turn", headers=auth).json()[
                "legal_commands"
            ]
            body = {"command_id": f"m-{move}", "command": chooser.choice(legal)}
            reply = http.post(
                f"/games/{game_id}/commands", params={"wait": 10}, json=body, headers=auth
            )
            assert reply.status_code == 200 and reply.json()["status"] == "applied", reply.text
    raise AssertionError(f"the {game} game did not end")
