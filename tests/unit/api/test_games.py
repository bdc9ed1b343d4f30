"""Creating games, taking seats, the lobby."""

from __future__ import annotations

import pytest

from .conftest import Api

pytestmark = pytest.mark.anyio


async def test_a_created_game_names_its_rules_and_seed_commitment(api: Api) -> None:
    # When a client creates a race for three
    response = await api.client.post(
        "/games", json={"game": "race", "config": {"players": 3, "target": 10}}
    )
    # Then it is created with three seats and a SHA-256 commitment to its seed
    assert response.status_code == 201
    created = response.json()
    assert (created["game"], created["seats"]) == ("race", 3)
    assert len(created["seed_sha256"]) == 64
    assert created["rules_version"]


async def test_joining_hands_out_each_seat_once_with_an_uncacheable_token(api: Api) -> None:
    game_id = await api.new_game(players=2)
    first = await api.client.post(f"/games/{game_id}/seats", json={"name": "Astrid"})
    second = await api.client.post(f"/games/{game_id}/seats", json={})
    third = await api.client.post(f"/games/{game_id}/seats", json={})
    assert [first.json()["seat"], second.json()["seat"]] == [0, 1]
    assert first.headers["cache-control"] == "no-store"
    # 32 random bytes, URL-safe base64: at least 128 bits
    assert len(first.json()["token"]) >= 43
    assert first.json()["token"] != second.json()["token"]
    assert third.status_code == 409
    assert third.headers["content-type"] == "application/problem+json"


async def test_the_lobby_lists_open_games_until_their_seats_are_taken(api: Api) -> None:
    # Given two games, one of them full
    open_game = await api.new_game(players=2)
    full_game, _ = await api.seated_game(players=2)
    # When the lobby is read
    response = await api.client.get("/games", params={"open": "true"})
    # Then only the open game is listed
    assert response.status_code == 200
    listed = [entry["game_id"] for entry in response.json()["games"]]
    assert open_game in listed
    assert full_game not in listed


async def test_the_lobby_offers_only_open_games_and_bounded_pages(api: Api) -> None:
    closed = await api.client.get("/games", params={"open": "false"})
    huge = await api.client.get("/games", params={"limit": "100000"})
    assert (closed.status_code, closed.json()["code"]) == (400, "lobby.open_only")
    assert (huge.status_code, huge.json()["code"]) == (400, "request.limit_too_large")


async def test_the_lobby_names_the_players_who_joined_trimmed(api: Api) -> None:
    # Given a game for three where two players joined, one with a name padded by spaces
    game_id = await api.new_game(players=3)
    await api.client.post(f"/v1/games/{game_id}/seats", json={"name": "  Astrid  "})
    await api.client.post(f"/v1/games/{game_id}/seats", json={})
    # When the lobby is read (under /v1)
    lobby = (await api.client.get("/v1/games")).json()["games"]
    entry = next(entry for entry in lobby if entry["game_id"] == game_id)
    # Then its entry names each taken seat's player
    assert entry["players"] == [{"seat": 0, "name": "Astrid"}, {"seat": 1, "name": ""}]


@pytest.mark.parametrize("name", ["a\nb", "tab\there", "bell\x07", "x" * 65])
async def test_a_name_with_control_characters_or_too_long_is_a_clear_422(
    api: Api, name: str
) -> None:
    game_id = await api.new_game(players=2)
    refused = await api.client.post(f"/v1/games/{game_id}/seats", json={"name": name})
    assert refused.status_code == 422
    assert refused.json()["code"] == "seat.bad_name"
    assert "64" in refused.json()["detail"]
    # And nothing was taken
    entry = (await api.client.get("/v1/games")).json()["games"]
    assert next(e for e in entry if e["game_id"] == game_id)["taken"] == []
