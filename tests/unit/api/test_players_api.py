"""Players and the life of a game over HTTP: every state (open, started, started with bots,
finished, cancelled) and every limit, with the problems each refusal carries."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakes.race import race_config
from tests.unit.api.conftest import Api, bearer, turn

pytestmark = pytest.mark.anyio


async def new_player(api: Api, name: str) -> dict[str, Any]:
    response = await api.client.post("/players", json={"name": name})
    assert response.status_code == 201, response.text
    assert response.headers["cache-control"] == "no-store"
    player: dict[str, Any] = response.json()
    return player


async def players_game(api: Api, token: str) -> str:
    response = await api.client.post(
        "/games", json={"game": "race", "config": race_config()}, headers=bearer(token)
    )
    assert response.status_code == 201, response.text
    game_id: str = response.json()["game_id"]
    return game_id


async def sit(api: Api, game_id: str, token: str, seat: int) -> Any:
    return await api.client.post(
        f"/games/{game_id}/seats", json={"seat": seat}, headers=bearer(token)
    )


@pytest.mark.parametrize(
    "settings_overrides", [{"max_games_created_per_hour": 2, "max_active_games_per_player": 1}]
)
async def test_life_of_a_players_game_over_http(api: Api) -> None:
    ada, bo = await new_player(api, "Ada"), await new_player(api, "Bo")
    profile = await api.client.get(f"/players/{ada['player_id']}")
    assert profile.json() == {"player_id": ada["player_id"], "name": "Ada", "ratings": []}
    assert (await api.client.get("/players/nobody")).json()["code"] == "player.not_found"

    game_id = await players_game(api, ada["token"])
    assert (await sit(api, game_id, ada["token"], 0)).status_code == 201
    assert (await turn(api, game_id, ada["token"]))["phase"] == "open"
    early = await api.client.post(
        f"/games/{game_id}/commands",
        json={"command_id": "early", "command": {"type": "Move", "steps": 1}},
        headers=bearer(ada["token"]),
    )
    assert early.status_code in (200, 202), early.text
    await api.drain()
    outcome = await api.client.get(f"/games/{game_id}/commands/early", headers=bearer(ada["token"]))
    assert outcome.json()["code"] == "game.not_started"

    # Bo may not start Ada's game; a second active game is over Ada's limit.
    refused = await api.client.post(f"/games/{game_id}/start", headers=bearer(bo["token"]))
    assert (refused.status_code, refused.json()["code"]) == (403, "game.not_creator")
    second = await players_game(api, ada["token"])
    limited = await sit(api, second, ada["token"], 0)
    assert (limited.status_code, limited.json()["code"]) == (429, "player.active_limit")
    over = await api.client.post(
        "/games", json={"game": "race", "config": race_config()}, headers=bearer(ada["token"])
    )
    assert (over.status_code, over.json()["code"]) == (429, "player.create_limit")

    # Cancelled before it starts: finished, nobody to act.
    cancelled = await api.client.post(f"/games/{second}/cancel", headers=bearer(ada["token"]))
    assert cancelled.status_code == 202
    await api.drain()
    assert (await turn(api, second))["phase"] == "cancelled"

    # Started when Bo takes the last seat; Bo's token opens Bo's seat.
    assert (await sit(api, game_id, bo["token"], 1)).status_code == 201
    await api.drain()
    started = await turn(api, game_id, bo["token"])
    assert started["phase"] == "started" and started["seat"] == 1
    late_cancel = await api.client.post(f"/games/{game_id}/cancel", headers=bearer(ada["token"]))
    assert late_cancel.status_code == 202
    await api.drain()
    decided = await api.client.get(
        f"/games/{game_id}/commands/sys:cancel", headers=bearer(ada["token"])
    )
    # The creator's cancel is the service's command; its creator reads its outcome where the
    # reply's location pointed.
    assert late_cancel.headers["location"] == f"/games/{game_id}/commands/sys%3Acancel"
    assert decided.status_code == 200, decided.text
    assert (decided.json()["status"], decided.json()["code"]) == (
        "refused",
        "game.already_started",
    )

    listed = await api.client.get(
        "/players/me/games", params={"filter": "active"}, headers=bearer(ada["token"])
    )
    assert [g["game_id"] for g in listed.json()["games"]] == [game_id]
    bad = await api.client.get("/players/me/games", headers=bearer("skp_nope"))
    assert (bad.status_code, bad.json()["code"]) == (401, "player.token_invalid")

    rotated = await api.client.post("/players/me/token", headers=bearer(ada["token"]))
    assert rotated.status_code == 201
    assert (await turn(api, game_id, rotated.json()["token"]))["seat"] == 0
    old = await api.client.get(f"/games/{game_id}/turn", headers=bearer(ada["token"]))
    assert old.status_code == 401
    revoked = await api.client.delete("/players/me/token", headers=bearer(rotated.json()["token"]))
    assert revoked.status_code == 204


async def test_the_creator_starts_with_a_bot_over_http(api: Api) -> None:
    ada = await new_player(api, "Ada")
    game_id = await players_game(api, ada["token"])
    await sit(api, game_id, ada["token"], 0)
    started = await api.client.post(f"/games/{game_id}/start", headers=bearer(ada["token"]))
    assert started.status_code == 202, started.text
    await api.drain()
    state = await turn(api, game_id, ada["token"])
    assert state["phase"] == "started" and state["to_act"] == [0]
    taken = await api.client.post(f"/games/{game_id}/seats", json={"seat": 1})
    assert (taken.status_code, taken.json()["code"]) == (409, "seat.taken")


async def test_guest_play_with_seat_tokens_is_unchanged(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    state = await turn(api, game_id, tokens[0])
    assert state["phase"] == "started" and state["to_act"]


async def test_audit_and_replay_show_the_service_and_bot_moves(api: Api) -> None:
    ada = await new_player(api, "Ada")
    game_id = await players_game(api, ada["token"])
    await sit(api, game_id, ada["token"], 0)
    await api.client.post(f"/games/{game_id}/start", headers=bearer(ada["token"]))
    await api.drain()
    state = await turn(api, game_id, ada["token"])
    command = {"command_id": "m0", "command": state["legal_commands"][0]}
    await api.client.post(f"/games/{game_id}/commands", json=command, headers=bearer(ada["token"]))
    await api.drain()
    events = (await api.client.get(f"/games/{game_id}/events", params={"after": "0"})).json()
    ids = {record["version"]: record.get("command_id") for record in events["events"]}
    bot_versions = [v for v, cid in ids.items() if cid and cid.startswith("bot:")]
    start_versions = [v for v, cid in ids.items() if cid == "sys:start"]
    assert bot_versions and start_versions
    for version in [*start_versions, *bot_versions]:
        audited = await api.client.get(f"/games/{game_id}/audit/{version}")
        assert audited.status_code == 200, audited.text
        replayed = await api.client.get(f"/games/{game_id}/replay", params={"at": version})
        assert replayed.status_code == 200, replayed.text


async def test_a_clock_that_skips_turns_is_refused_where_the_rules_never_pass(api: Api) -> None:
    ada = await new_player(api, "Ada")
    for game, config in (("race", race_config()), ("looot", {"players": 2})):
        refused = await api.client.post(
            "/games",
            json={
                "game": game,
                "config": config,
                "clock": {"per_move_s": 60, "on_timeout": "skip"},
            },
            headers=bearer(ada["token"]),
        )
        assert refused.status_code == 422, refused.text
        problem = refused.json()
        assert problem["code"] == "clock.skip_not_allowed" and game in problem["detail"]
    created = await api.client.post(
        "/games",
        json={
            "game": "landnam",
            "config": {"players": 3},
            "clock": {"per_move_s": 60, "on_timeout": "skip", "take_back": True},
        },
        headers=bearer(ada["token"]),
    )
    assert created.status_code == 201, created.text
    forfeit = await api.client.post(
        "/games",
        json={
            "game": "race",
            "config": race_config(),
            "clock": {"per_move_s": 60, "on_timeout": "forfeit"},
        },
        headers=bearer(ada["token"]),
    )
    assert forfeit.status_code == 201, forfeit.text


@pytest.mark.parametrize(
    "clock",
    [
        {"per_move_s": 60, "increment_s": 1.7e308},
        {"per_move_s": 60, "total_s": 3.5e16},
        {"per_move_s": 60, "increment_s": 86401},
        {"per_move_s": 1e9},
        {"per_move_s": 60, "take_back": 0},
    ],
)
async def test_a_clock_out_of_its_bounds_is_a_400_naming_it_and_creates_nothing(
    api: Api, clock: dict[str, object]
) -> None:
    ada = await new_player(api, "Ada")
    refused = await api.client.post(
        "/games",
        json={"game": "race", "config": race_config(), "clock": clock},
        headers=bearer(ada["token"]),
    )
    assert refused.status_code == 400, refused.text
    problem = refused.json()
    assert problem["code"] == "request.invalid"
    assert problem["errors"][0]["key"].startswith("clock.")
    mine = await api.client.get("/players/me/games", headers=bearer(ada["token"]))
    assert mine.json()["games"] == []
