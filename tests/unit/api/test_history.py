"""Replay, audit and fairness over HTTP, with what each caller may see while a game goes on."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from domain.games import register
from tests.fakes.race import RaceGame

from .conftest import Api, bearer, turn

pytestmark = pytest.mark.anyio


class PlayedOverHttp:
    """A race played through the API, keeping every view clients were served along the way."""

    def __init__(self, api: Api, game_id: str, tokens: list[str]) -> None:
        self.api = api
        self.game_id = game_id
        self.tokens = tokens
        self.public: dict[int, dict[str, Any]] = {}  # version -> public view served live
        self.own: dict[tuple[int, int], dict[str, Any]] = {}  # (version, seat) -> its view
        self.moves = 0

    async def record_views(self) -> None:
        public = (await self.api.client.get(f"/games/{self.game_id}/view")).json()
        self.public[public["version"]] = public["view"]
        for seat, token in enumerate(self.tokens):
            own = await self.api.client.get(f"/games/{self.game_id}/view", headers=bearer(token))
            self.own[(own.json()["version"], seat)] = own.json()["view"]

    async def send(self, seat: int, command: dict[str, Any], command_id: str) -> None:
        response = await self.api.client.post(
            f"/games/{self.game_id}/commands",
            json={"command_id": command_id, "command": command},
            headers=bearer(self.tokens[seat]),
        )
        assert response.status_code == 202, response.text
        await self.api.drain()

    async def play(self, moves: int | None = None) -> bool:
        """Play the first legal move of each seat in turn; True once the game is over."""
        await self.record_views()
        while moves is None or self.moves < moves:
            public = await turn(self.api, self.game_id)
            if public["finished"]:
                return True
            seat = public["to_act"][0]
            legal = (await turn(self.api, self.game_id, self.tokens[seat]))["legal_commands"]
            await self.send(seat, legal[0], f"m{self.moves}")
            self.moves += 1
            await self.record_views()
        return (await turn(self.api, self.game_id))["finished"]


async def new_race(api: Api, target: int = 12) -> PlayedOverHttp:
    game_id, tokens = await api.seated_game(players=2, target=target)
    return PlayedOverHttp(api, game_id, tokens)


async def get(api: Api, path: str, token: str | None = None, **params: Any) -> Any:
    return await api.client.get(path, params=params, headers=bearer(token) if token else {})


async def test_replay_at_each_version_equals_the_views_served_live(api: Api) -> None:
    # Given a race played to the end over HTTP, every view read after each move
    race = await new_race(api)
    assert await race.play()
    # When the public view and each seat's own view are replayed at those versions
    for version, served in race.public.items():
        public = await get(api, f"/games/{race.game_id}/replay", at=version)
        # Then they are what was served live
        assert public.status_code == 200, public.text
        assert public.json()["view"] == served and public.json()["version"] == version
    for (version, seat), served in race.own.items():
        own = await get(api, f"/games/{race.game_id}/replay", race.tokens[seat], at=version)
        assert own.json()["seat"] == seat and own.json()["view"] == served
    # And the move list names every move, with a readable line each
    moves = (await get(api, f"/games/{race.game_id}/replay")).json()["moves"]
    assert [move["command_id"] for move in moves] == [f"m{n}" for n in range(race.moves)]
    assert all(move["text"].startswith("v") for move in moves)


async def test_during_play_a_seat_replays_only_its_own_view(api: Api) -> None:
    race = await new_race(api, target=60)
    await race.play(moves=2)
    path = f"/games/{race.game_id}/replay"
    # A spectator gets the public view, without anyone's secret boost
    public = await get(api, path)
    assert public.json()["seat"] is None and public.json()["view"]["my_boost"] is None
    # A seat with its token gets its own view
    own = await get(api, path, race.tokens[0])
    assert own.json()["seat"] == 0 and own.json()["view"]["my_boost"] is not None
    # Naming another seat's view is forbidden, with a token or without
    for token in (race.tokens[0], None):
        other = await get(api, path, token, seat=1)
        assert other.status_code == 403
        assert other.headers["content-type"].startswith("application/problem+json")
        assert other.json()["code"] == "seat.forbidden"
        assert "my_boost" not in other.text
    # (a large reply is gzip-compressed, so it varies by Accept-Encoding as well)
    vary = {name.strip() for name in public.headers["vary"].split(",")}
    assert {"Accept", "Authorization"} <= vary


async def test_once_the_game_is_over_anyone_replays_any_seat(api: Api) -> None:
    race = await new_race(api)
    assert await race.play()
    last = max(race.own)[0]
    response = await get(api, f"/games/{race.game_id}/replay", seat=1)
    assert response.status_code == 200
    assert response.json()["view"] == race.own[(last, 1)]


async def test_a_move_is_audited_by_version_showing_another_seat_only_what_is_public(
    api: Api,
) -> None:
    # Given a race in progress where each seat has moved once
    race = await new_race(api, target=60)
    await race.play(moves=2)
    first_move = min(version for version in race.public if version > min(race.public))
    path = f"/games/{race.game_id}/audit/{first_move}"
    mover = (await get(api, path, race.tokens[0])).json()["command"]["seat"]
    other = 1 - mover
    # When the mover audits its move, it sees its command, its view and its alternatives
    own = (await get(api, path, race.tokens[mover])).json()
    assert own["status"] == "applied" and own["command"]["command"]["type"] == "Move"
    assert own["legal_alternatives"] and own["seat_view_before"]["my_boost"] is not None
    assert own["chain"] == {"up_to": first_move, "holds": True}
    # When the other seat audits it, the command and alternatives are withheld
    theirs = await get(api, path, race.tokens[other])
    assert theirs.status_code == 200
    body = theirs.json()
    assert "legal_alternatives" not in body and "seat_view_before" not in body
    assert "command" not in body["command"] and body["withheld"]
    assert body["public_view_before"]["my_boost"] is None
    # And a version the stream does not hold is a 404 problem naming the range
    missing = await get(api, f"/games/{race.game_id}/audit/999")
    assert (missing.status_code, missing.json()["code"]) == (404, "history.version_not_found")


async def test_a_refused_command_is_audited_by_its_id_with_the_rules_reason(api: Api) -> None:
    race = await new_race(api, target=60)
    await race.play(moves=1)
    seat = (await turn(api, race.game_id))["to_act"][0]
    await race.send(seat, {"type": "Move", "steps": 9}, "too-far")
    path = f"/games/{race.game_id}/commands/too-far/audit"
    own = (await get(api, path, race.tokens[seat])).json()
    assert own["status"] == "refused"
    assert own["refusal"]["code"] == "race.bad_steps"
    assert own["command"]["command"] == {"type": "Move", "steps": 9}
    theirs = (await get(api, path, race.tokens[1 - seat], seat=seat)).json()
    assert theirs["status"] == "refused" and "refusal" not in theirs
    unknown = await get(api, f"/games/{race.game_id}/commands/nope/audit")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "command.not_found")


async def test_fairness_is_pending_during_play_and_proved_at_the_end(api: Api) -> None:
    race = await new_race(api)
    await race.play(moves=1)
    path = f"/games/{race.game_id}/fairness"
    pending = (await get(api, path)).json()
    assert pending["status"] == "pending" and "seed_hex" not in pending
    assert await race.play()
    proved = (await get(api, path)).json()
    assert proved["status"] == "fair" and proved["commitment_holds"] is True
    seed = bytes.fromhex(proved["seed_hex"])
    assert hashlib.sha256(seed).hexdigest() == proved["seed_sha256"] == pending["seed_sha256"]


async def test_history_of_an_unknown_game_is_a_404_problem(api: Api) -> None:
    for path in ("replay", "audit/2", "fairness", "commands/x/audit"):
        response = await get(api, f"/games/no-such-game/{path}")
        assert (response.status_code, response.json()["code"]) == (404, "game.not_found")


class RaceUnderNewRules(RaceGame):
    rules_version = "2"


async def test_a_game_under_other_rules_is_a_409_problem_naming_both_versions(api: Api) -> None:
    race = await new_race(api)
    register(RaceUnderNewRules())
    response = await get(api, f"/games/{race.game_id}/replay")
    assert response.status_code == 409
    problem = response.json()
    assert problem["code"] == "game.rules_version"
    assert problem["details"] == {"game_rules": "1", "service_rules": "2"}
    assert "'1'" in problem["detail"] and "'2'" in problem["detail"]


async def test_a_bad_token_is_refused(api: Api) -> None:
    race = await new_race(api)
    response = await get(api, f"/games/{race.game_id}/replay", "not-a-token")
    assert (response.status_code, response.json()["code"]) == (401, "token.invalid")


async def test_a_version_below_one_is_a_400(api: Api) -> None:
    race = await new_race(api)
    response = await get(api, f"/games/{race.game_id}/replay", at=0)
    assert response.status_code == 400
