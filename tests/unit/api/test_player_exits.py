"""The table's exits over HTTP: giving a seat back, resigning (only one's own seat), the
replies of resign, cancel and start read where they point, and the Retry-After of the hourly
creation limit and of a rematch's kept seats."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakes.race import race_config
from tests.unit.api.conftest import Api, bearer, turn
from tests.unit.api.test_players_api import new_player, players_game, sit

pytestmark = pytest.mark.anyio


async def started_game(api: Api) -> tuple[str, dict[str, Any], dict[str, Any]]:
    ada, bo = await new_player(api, "Ada"), await new_player(api, "Bo")
    game_id = await players_game(api, ada["token"])
    assert (await sit(api, game_id, ada["token"], 0)).status_code == 201
    assert (await sit(api, game_id, bo["token"], 1)).status_code == 201
    await api.drain()
    return game_id, ada, bo


async def test_a_player_gives_their_seat_back_before_the_start(api: Api) -> None:
    ada, bo = await new_player(api, "Ada"), await new_player(api, "Bo")
    game_id = await players_game(api, ada["token"])
    assert (await sit(api, game_id, ada["token"], 0)).status_code == 201
    left = await api.client.delete(f"/games/{game_id}/seats/me", headers=bearer(ada["token"]))
    assert left.status_code == 204, left.text
    again = await api.client.delete(f"/games/{game_id}/seats/me", headers=bearer(ada["token"]))
    assert (again.status_code, again.json()["code"]) == (403, "player.no_seat")
    assert (await sit(api, game_id, bo["token"], 0)).status_code == 201  # free again
    assert (await sit(api, game_id, ada["token"], 1)).status_code == 201
    await api.drain()
    late = await api.client.delete(f"/games/{game_id}/seats/me", headers=bearer(ada["token"]))
    assert (late.status_code, late.json()["code"]) == (409, "seat.game_started")
    assert (await turn(api, game_id, ada["token"]))["seat"] == 1


async def test_a_resign_naming_another_seat_is_refused(api: Api) -> None:
    game_id, ada, _ = await started_game(api)
    other = await api.client.post(
        f"/games/{game_id}/resign", json={"seat": 1}, headers=bearer(ada["token"])
    )
    assert (other.status_code, other.json()["code"]) == (403, "seat.forbidden")
    await api.drain()
    outcome = await api.client.get(
        f"/games/{game_id}/commands/sys:resign:0", headers=bearer(ada["token"])
    )
    assert outcome.status_code == 404  # nothing was resigned
    own = await api.client.post(
        f"/games/{game_id}/resign", json={"seat": 0}, headers=bearer(ada["token"])
    )
    assert own.status_code == 202, own.text
    assert own.json()["command_id"] == "sys:resign:0"


async def test_a_resign_is_read_where_its_reply_points(api: Api) -> None:
    game_id, ada, bo = await started_game(api)
    resigned = await api.client.post(f"/games/{game_id}/resign", headers=bearer(ada["token"]))
    assert (resigned.status_code, resigned.json()["status"]) == (202, "queued")
    location = resigned.headers["location"]
    assert location == f"/games/{game_id}/commands/sys%3Aresign%3A0"
    await api.drain()
    read = await api.client.get(location, headers=bearer(ada["token"]))
    assert (read.status_code, read.json()["status"]) == (200, "applied"), read.text
    # Another seat reads only its own resignation.
    foreign = await api.client.get(location, headers=bearer(bo["token"]))
    assert foreign.status_code == 404
    again = await api.client.post(f"/games/{game_id}/resign", headers=bearer(ada["token"]))
    assert (again.status_code, again.json()["status"]) == (200, "applied")


async def test_a_cancel_is_read_by_its_creator_where_its_reply_points(api: Api) -> None:
    ada = await new_player(api, "Ada")
    game_id = await players_game(api, ada["token"])  # Ada holds no seat in it
    cancelled = await api.client.post(f"/games/{game_id}/cancel", headers=bearer(ada["token"]))
    assert cancelled.status_code == 202, cancelled.text
    await api.drain()
    read = await api.client.get(cancelled.headers["location"], headers=bearer(ada["token"]))
    assert (read.status_code, read.json()["status"]) == (200, "applied"), read.text
    stranger = await new_player(api, "Bo")
    refused = await api.client.get(cancelled.headers["location"], headers=bearer(stranger["token"]))
    assert (refused.status_code, refused.json()["code"]) == (403, "player.no_seat")


@pytest.mark.parametrize("settings_overrides", [{"max_games_created_per_hour": 2}])
async def test_the_hourly_creation_limit_says_when_to_try_again(api: Api) -> None:
    ada = await new_player(api, "Ada")
    for _ in range(2):
        await players_game(api, ada["token"])
    over = await api.client.post(
        "/games", json={"game": "race", "config": race_config()}, headers=bearer(ada["token"])
    )
    assert (over.status_code, over.json()["code"]) == (429, "player.create_limit")
    assert 1 <= int(over.headers["retry-after"]) <= 3600
    assert over.json()["details"]["retry_after_s"] == int(over.headers["retry-after"])


async def test_a_refused_config_is_not_counted_against_the_hourly_limit(api: Api) -> None:
    ada = await new_player(api, "Ada")
    limit = api.settings.max_games_created_per_hour
    for _ in range(limit):
        refused = await api.client.post(
            "/games", json={"game": "race", "config": {"players": 99}}, headers=bearer(ada["token"])
        )
        assert refused.status_code == 422, refused.text
    await players_game(api, ada["token"])


async def test_a_rematch_refuses_outsiders_with_when_to_try_again(api: Api) -> None:
    game_id, ada, bo = await started_game(api)
    await api.client.post(f"/games/{game_id}/resign", headers=bearer(ada["token"]))
    await api.drain()
    for step in range(400):
        state = await turn(api, game_id)
        if state["finished"]:
            break
        legal = (await turn(api, game_id, bo["token"]))["legal_commands"]
        await api.client.post(
            f"/games/{game_id}/commands",
            json={"command_id": f"m{step}", "command": legal[0]},
            headers=bearer(bo["token"]),
        )
        await api.drain()
    rematch = await api.client.post(f"/games/{game_id}/rematch", headers=bearer(bo["token"]))
    assert rematch.status_code == 201, rematch.text
    new_id = rematch.json()["game_id"]
    cy = await new_player(api, "Cy")
    outsider = await api.client.post(f"/games/{new_id}/seats", json={}, headers=bearer(cy["token"]))
    assert (outsider.status_code, outsider.json()["code"]) == (409, "seat.reserved_for_rematch")
    assert 1 <= int(outsider.headers["retry-after"]) <= 600
    assert (await sit(api, new_id, ada["token"], 1)).status_code == 201


async def test_a_seat_given_back_and_taken_by_another_changes_the_views_etag(api: Api) -> None:
    ada, bo = await new_player(api, "Ada"), await new_player(api, "Bo")
    game_id = await players_game(api, ada["token"])
    await sit(api, game_id, ada["token"], 0)
    first = await api.client.get(f"/games/{game_id}/view")
    assert [p["name"] for p in first.json()["players"]] == ["Ada"]
    await api.client.delete(f"/games/{game_id}/seats/me", headers=bearer(ada["token"]))
    await sit(api, game_id, bo["token"], 0)  # as many seats taken, at the same version
    again = await api.client.get(
        f"/games/{game_id}/view", headers={"if-none-match": first.headers["etag"]}
    )
    assert again.status_code == 200, again.status_code
    assert [p["name"] for p in again.json()["players"]] == ["Bo"]


async def test_a_resign_with_a_wait_too_long_queues_nothing(api: Api) -> None:
    game_id, ada, _ = await started_game(api)
    too_long = api.settings.max_wait_s + 1
    refused = await api.client.post(
        f"/games/{game_id}/resign", params={"wait": too_long}, headers=bearer(ada["token"])
    )
    assert (refused.status_code, refused.json()["code"]) == (400, "request.wait_too_long")
    await api.drain()
    outcome = await api.client.get(
        f"/games/{game_id}/commands/sys:resign:0", headers=bearer(ada["token"])
    )
    assert outcome.status_code == 404
