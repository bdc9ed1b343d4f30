"""Reading a game: views with ETags, seat privacy, filtered events, the turn."""

from __future__ import annotations

import msgspec
import pytest

from contracts.api import ViewEnvelope

from .conftest import Api, bearer, turn

pytestmark = pytest.mark.anyio


async def test_a_seat_sees_its_own_boost_and_the_public_sees_none(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    mine = await api.client.get(f"/games/{game_id}/view", headers=bearer(tokens[0]))
    public = await api.client.get(f"/games/{game_id}/view")
    assert mine.status_code == public.status_code == 200
    assert mine.json()["seat"] == 0
    assert 1 <= mine.json()["view"]["my_boost"] <= 3
    assert public.json()["seat"] is None
    assert public.json()["view"].get("my_boost") is None


async def test_the_view_etag_is_its_version_and_304_while_unchanged(api: Api) -> None:
    # Given a view read once
    game_id, tokens = await api.seated_game()
    first = await api.client.get(f"/games/{game_id}/view")
    etag = first.headers["etag"]
    assert etag == f'"{first.json()["version"]}"'
    assert first.headers["cache-control"] == "private, no-cache"
    # When it is read again with its ETag, nothing having changed
    again = await api.client.get(f"/games/{game_id}/view", headers={"if-none-match": etag})
    # Then the answer is 304 without a body
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == etag
    # And once a move is applied, the same request gets the new view
    seat = (await turn(api, game_id))["to_act"][0]
    await api.client.post(
        f"/games/{game_id}/commands",
        json={"command_id": "m", "command": {"type": "Move", "steps": 1}},
        headers=bearer(tokens[seat]),
    )
    await api.drain()
    moved = await api.client.get(f"/games/{game_id}/view", headers={"if-none-match": etag})
    assert moved.status_code == 200
    assert moved.json()["version"] > first.json()["version"]


@pytest.mark.parametrize("if_none_match", ['W/"{v}"', '"0", "{v}"', "*"])
async def test_weak_lists_and_star_etags_match(api: Api, if_none_match: str) -> None:
    game_id, _ = await api.seated_game()
    version = (await api.client.get(f"/games/{game_id}/view")).json()["version"]
    response = await api.client.get(
        f"/games/{game_id}/view", headers={"if-none-match": if_none_match.format(v=version)}
    )
    assert response.status_code == 304


async def test_another_seats_view_is_forbidden(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    response = await api.client.get(
        f"/games/{game_id}/view", params={"seat": "1"}, headers=bearer(tokens[0])
    )
    assert (response.status_code, response.json()["code"]) == (403, "seat.forbidden")
    assert "my_boost" not in response.text


async def test_a_seat_view_without_its_token_is_unauthorized(api: Api) -> None:
    game_id, _ = await api.seated_game()
    response = await api.client.get(f"/games/{game_id}/view", params={"seat": "0"})
    assert (response.status_code, response.json()["code"]) == (401, "token.missing")


async def test_events_hide_other_seats_boosts_while_the_game_goes_on(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    as_seat_0 = await api.client.get(f"/games/{game_id}/events", headers=bearer(tokens[0]))
    as_public = await api.client.get(f"/games/{game_id}/events")

    def boosts(page: dict[str, object]) -> dict[int, object]:
        events = page["events"]
        assert isinstance(events, list)
        return {
            record["event"]["seat"]: record["event"]["value"]
            for record in events
            if record["event"]["type"] == "BoostDealt"
        }

    mine = boosts(as_seat_0.json())
    assert mine[0] is not None and mine[1] is None
    assert set(boosts(as_public.json()).values()) == {None}
    assert "seed_hex" not in as_public.text


async def test_events_page_after_a_version(api: Api) -> None:
    game_id, _ = await api.seated_game()
    everything = (await api.client.get(f"/games/{game_id}/events")).json()
    later = (await api.client.get(f"/games/{game_id}/events", params={"after": "2"})).json()
    assert [r["version"] for r in later["events"]] == [
        r["version"] for r in everything["events"] if r["version"] > 2
    ]
    assert later["last_version"] == everything["last_version"]


async def test_the_turn_lists_the_acting_seats_legal_commands_only(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    public = await turn(api, game_id)
    seat = public["to_act"][0]
    acting = await turn(api, game_id, tokens[seat])
    waiting = await turn(api, game_id, tokens[1 - seat])
    assert public["legal_commands"] == waiting["legal_commands"] == []
    assert {"type": "Move", "steps": 1} in acting["legal_commands"]
    assert acting["seat"] == seat
    assert acting["finished"] is False


async def test_msgpack_in_and_out(api: Api) -> None:
    # Given a client that speaks MessagePack only
    msgpack = {"content-type": "application/msgpack", "accept": "application/msgpack"}
    body = msgspec.msgpack.encode({"game": "race", "config": {"players": 2, "target": 9}})
    # When it creates a game and reads its view
    created = await api.client.post("/games", content=body, headers=msgpack)
    game_id = msgspec.msgpack.decode(created.content)["game_id"]
    view = await api.client.get(f"/games/{game_id}/view", headers={"accept": "application/msgpack"})
    # Then both replies are MessagePack, decoding into the API's Structs
    assert created.status_code == 201
    assert created.headers["content-type"] == "application/msgpack"
    assert view.headers["content-type"] == "application/msgpack"
    envelope = msgspec.msgpack.decode(view.content, type=ViewEnvelope)
    assert envelope.game_id == game_id
    assert envelope.view["target"] == 9


async def test_a_msgpack_body_without_accept_gets_a_msgpack_reply(api: Api) -> None:
    body = msgspec.msgpack.encode({"game": "race", "config": {"players": 2}})
    response = await api.client.post(
        "/games", content=body, headers={"content-type": "application/x-msgpack"}
    )
    assert response.headers["content-type"] == "application/x-msgpack"
    assert msgspec.msgpack.decode(response.content)["game"] == "race"


async def test_malformed_msgpack_is_a_problem_in_json(api: Api) -> None:
    response = await api.client.post(
        "/games",
        content=b"\xc1",
        headers={"content-type": "application/msgpack", "accept": "application/msgpack"},
    )
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "request.malformed"


async def test_every_view_names_the_seated_players_and_a_join_is_seen_at_once(api: Api) -> None:
    # Given a game whose seat 0 was taken by "Ada" (spaces trimmed), seat 1 still free
    game_id = await api.new_game()
    ada = await api.client.post(f"/games/{game_id}/seats", json={"name": "  Ada  "})
    assert ada.status_code == 201
    first = await api.client.get(f"/games/{game_id}/view")
    assert first.json()["players"] == [{"seat": 0, "name": "Ada"}]
    # When seat 1 is taken, which makes no new version
    bo = await api.client.post(f"/games/{game_id}/seats", json={"name": "Bø"})
    again = await api.client.get(
        f"/games/{game_id}/view", headers={"if-none-match": first.headers["etag"]}
    )
    # Then the view read again with its old ETag is not "unchanged": it names both players
    assert again.status_code == 200
    assert again.json()["version"] == first.json()["version"]
    players = [{"seat": 0, "name": "Ada"}, {"seat": 1, "name": "Bø"}]
    assert again.json()["players"] == players
    # And once every seat is taken the ETag is the version alone, and a seat's view, the
    # public one and their MessagePack forms all carry the players
    assert again.headers["etag"] == f'"{again.json()["version"]}"'
    for headers in ({}, bearer(bo.json()["token"]), bearer(ada.json()["token"])):
        for accept in ("application/json", "application/msgpack"):
            read = await api.client.get(
                f"/games/{game_id}/view", headers={**headers, "accept": accept}
            )
            decode = msgspec.json.decode if accept.endswith("json") else msgspec.msgpack.decode
            envelope = decode(read.content, type=ViewEnvelope)
            assert [msgspec.to_builtins(p) for p in envelope.players] == players


async def test_a_name_with_control_characters_or_too_long_is_refused(api: Api) -> None:
    game_id = await api.new_game()
    for name in ("Ada\nLovelace", "x" * 65):
        refused = await api.client.post(f"/games/{game_id}/seats", json={"name": name})
        assert (refused.status_code, refused.json()["code"]) == (422, "seat.bad_name")
    view = await api.client.get(f"/games/{game_id}/view")
    assert view.json()["players"] == []


async def test_views_restored_from_an_older_version_are_damage_not_a_200(api: Api) -> None:
    # Given a game whose views record is copied aside, then a move made
    game_id, tokens = await api.seated_game()
    views_key = api.skald.store.keys(game_id).views
    older = await api.skald.redis.hgetall(views_key)
    seat = (await turn(api, game_id))["to_act"][0]
    await api.client.post(
        f"/games/{game_id}/commands",
        json={"command_id": "m", "command": {"type": "Move", "steps": 1}},
        headers=bearer(tokens[seat]),
    )
    await api.drain()
    assert (await api.client.get(f"/games/{game_id}/view")).status_code == 200
    # When the older views record is restored over the current one
    await api.skald.redis.delete(views_key)
    await api.skald.redis.hset(views_key, mapping=older)
    # Then the view and the turn are refused as damage, naming the views behind the head
    for path in ("view", "turn"):
        response = await api.client.get(f"/games/{game_id}/{path}")
        assert response.status_code == 500, response.text
        problem = response.json()
        assert problem["code"] == "game.damaged"
        assert "the stored views are at version" in problem["details"]["damage"]
