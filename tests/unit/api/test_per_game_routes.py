"""Each game's own copy of the operations on a game (`/<game>/games/{game_id}/...`)."""

from __future__ import annotations

import pytest

from .conftest import Api, bearer

pytestmark = pytest.mark.anyio
MOVE = {"type": "Move", "steps": 1}


async def test_a_games_own_paths_answer_as_the_shared_ones(api: Api) -> None:
    # Given a seated race game
    game_id, tokens = await api.seated_game()
    shared = (await api.client.get(f"/games/{game_id}/turn", headers=bearer(tokens[0]))).json()
    seat = shared["to_act"][0]
    # When the seat to act submits and reads through the race game's own paths
    submitted = await api.client.post(
        f"/v1/race/games/{game_id}/commands",
        json={"command_id": "own-1", "command": MOVE},
        headers=bearer(tokens[seat]),
    )
    await api.drain()
    outcome = await api.client.get(
        f"/v1/race/games/{game_id}/commands/own-1", headers=bearer(tokens[seat])
    )
    own_turn = await api.client.get(f"/v1/race/games/{game_id}/turn", headers=bearer(tokens[seat]))
    # Then they behave as the shared paths do
    assert submitted.status_code == 202
    assert outcome.json()["status"] == "applied"
    assert (
        own_turn.json()
        == (await api.client.get(f"/games/{game_id}/turn", headers=bearer(tokens[seat]))).json()
    )


async def test_another_games_id_is_not_found_on_a_games_own_paths(api: Api) -> None:
    # Given a Fjords game
    created = await api.client.post("/games", json={"game": "fjords", "config": {"players": 2}})
    game_id = created.json()["game_id"]
    # When it is read through the race game's paths
    response = await api.client.get(f"/v1/race/games/{game_id}/view")
    # Then it is not found there, as a problem that names the game it is
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "game.not_found"
    assert "fjords" in response.json()["detail"]
    assert (await api.client.get(f"/v1/fjords/games/{game_id}/view")).status_code == 200
