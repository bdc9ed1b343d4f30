"""A seat acts and reads as itself only; a spectator reads the public view only."""

from __future__ import annotations

import pytest

from tests.unit.api.conftest import Api, bearer, stream_version, turn

pytestmark = pytest.mark.anyio


async def test_a_seat_cannot_act_for_another_seat(api: Api) -> None:
    # Given a game where seat 0 is to act
    game_id, tokens = await api.seated_game()
    mover = min((await turn(api, game_id))["to_act"])
    other = 1 - mover
    before = await stream_version(api, game_id)
    # When the other seat names the mover in its body, or sends the mover's move as its own
    named = await api.client.post(
        f"/games/{game_id}/commands",
        json={"command_id": "c1", "seat": mover, "command": {"type": "Move", "steps": 1}},
        headers=bearer(tokens[other]),
    )
    own = await api.client.post(
        f"/games/{game_id}/commands?wait=1",
        json={"command_id": "c2", "command": {"type": "Move", "steps": 1}},
        headers=bearer(tokens[other]),
    )
    await api.drain()
    # Then a seat field is refused as unknown, the move is the sender's and out of turn
    assert named.status_code == 400
    outcome = (
        await api.client.get(f"/games/{game_id}/commands/c2", headers=bearer(tokens[other]))
    ).json()
    assert own.status_code in (202, 422)
    assert outcome["seat"] == other and outcome["status"] == "refused"
    assert await stream_version(api, game_id) == before


async def test_a_seat_cannot_read_another_seats_view_or_command(api: Api) -> None:
    # Given a game where seat 0 sent a command
    game_id, tokens = await api.seated_game()
    mover = min((await turn(api, game_id))["to_act"])
    await api.client.post(
        f"/games/{game_id}/commands",
        json={"command_id": "mine", "command": {"type": "Move", "steps": 1}},
        headers=bearer(tokens[mover]),
    )
    await api.drain()
    other = bearer(tokens[1 - mover])
    # When the other seat asks for the mover's view, replay view and command
    view = await api.client.get(f"/games/{game_id}/view", params={"seat": mover}, headers=other)
    replay = await api.client.get(f"/games/{game_id}/replay", params={"seat": mover}, headers=other)
    command = await api.client.get(f"/games/{game_id}/commands/mine", headers=other)
    # Then the views are forbidden and the command is not found
    assert view.status_code == 403 and view.json()["code"] == "seat.forbidden"
    assert replay.status_code == 403
    assert command.status_code == 404


async def test_a_spectator_reads_the_public_view_only(api: Api) -> None:
    # Given a game in progress
    game_id, _ = await api.seated_game()
    # When a caller without a token reads views
    public = await api.client.get(f"/games/{game_id}/view")
    seat_view = await api.client.get(f"/games/{game_id}/view", params={"seat": 0})
    seat_replay = await api.client.get(f"/games/{game_id}/replay", params={"seat": 0})
    own_turn = await api.client.get(f"/games/{game_id}/turn")
    # Then it gets the public view, and a seat's view needs that seat's token
    assert public.status_code == 200 and public.json()["seat"] is None
    assert seat_view.status_code == 401
    assert seat_replay.status_code in (401, 403)
    assert own_turn.json()["seat"] is None and own_turn.json()["legal_commands"] == []
