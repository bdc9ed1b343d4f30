"""Submitting commands: tokens, queueing, waiting, refusals, idempotent retries."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Api, bearer, stream_version, turn

pytestmark = pytest.mark.anyio
MOVE = {"type": "Move", "steps": 2}


async def test_a_command_is_queued_then_applied_by_the_worker(api: Api) -> None:
    # Given a seated game and the seat whose turn it is
    game_id, tokens = await api.seated_game()
    seat = (await turn(api, game_id))["to_act"][0]
    # When it submits a move without waiting
    response = await api.client.post(
        f"/games/{game_id}/commands",
        json={"command_id": "c-1", "command": MOVE},
        headers=bearer(tokens[seat]),
    )
    # Then the reply is 202 with where to look, and the worker applies it
    assert response.status_code == 202
    assert response.json() == {"command_id": "c-1", "status": "queued", "seat": seat}
    assert response.headers["location"] == f"/games/{game_id}/commands/c-1"
    assert await api.drain() >= 1
    outcome = await api.client.get(response.headers["location"], headers=bearer(tokens[seat]))
    assert outcome.status_code == 200
    applied = outcome.json()
    assert applied["status"] == "applied"
    assert applied["first_version"] <= applied["last_version"] == await stream_version(api, game_id)


async def test_an_out_of_turn_command_is_refused_with_the_rules_code(api: Api) -> None:
    # Given the seat that is NOT to act
    game_id, tokens = await api.seated_game()
    other = 1 - (await turn(api, game_id))["to_act"][0]
    before = await stream_version(api, game_id)
    # When it submits, and the worker decides
    await api.client.post(
        f"/games/{game_id}/commands",
        json={"command_id": "c-x", "command": MOVE},
        headers=bearer(tokens[other]),
    )
    await api.drain()
    retry = await api.client.post(
        f"/games/{game_id}/commands",
        params={"wait": "1"},
        json={"command_id": "c-x", "command": MOVE},
        headers=bearer(tokens[other]),
    )
    # Then the answer is a 422 problem carrying the domain's code, and nothing was appended
    assert retry.status_code == 422
    assert retry.headers["content-type"] == "application/problem+json"
    problem = retry.json()
    assert problem["code"] == "turn.not_yours"
    assert problem["detail"] == f"It is seat {1 - other}'s turn, not seat {other}'s."
    assert problem["details"] == {"seat": other, "to_act": [1 - other]}
    assert problem["instance"] == f"/games/{game_id}/commands/c-x"
    assert await stream_version(api, game_id) == before


async def test_the_same_command_id_applies_once_and_every_reply_names_it(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    seat = (await turn(api, game_id))["to_act"][0]
    before = await stream_version(api, game_id)
    body = {"command_id": "once", "command": MOVE}
    # When the same command is sent three times, the worker running in between
    replies = []
    for _ in range(3):
        replies.append(
            await api.client.post(
                f"/games/{game_id}/commands", json=body, headers=bearer(tokens[seat])
            )
        )
        await api.drain()
    # Then the first is queued, the retries name the one applied outcome, applied once
    assert replies[0].json()["status"] == "queued"
    assert replies[1].json() == replies[2].json()
    assert replies[1].json()["status"] == "applied"
    assert replies[1].json()["first_version"] == before + 1
    assert await stream_version(api, game_id) == replies[1].json()["last_version"]


async def test_reusing_a_command_id_for_another_command_is_a_conflict(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    seat = (await turn(api, game_id))["to_act"][0]
    url, headers = f"/games/{game_id}/commands", bearer(tokens[seat])
    await api.client.post(url, json={"command_id": "c", "command": MOVE}, headers=headers)
    clash = await api.client.post(
        url, json={"command_id": "c", "command": {"type": "Move", "steps": 1}}, headers=headers
    )
    assert (clash.status_code, clash.json()["code"]) == (409, "command.id_reused")


@pytest.mark.parametrize(
    ("headers", "code"),
    [
        ({}, "token.missing"),
        ({"authorization": "Basic dXNlcjpwYXNz"}, "token.malformed"),
        ({"authorization": "Bearer "}, "token.malformed"),
        ({"authorization": "Bearer not-a-seat-token"}, "token.invalid"),
    ],
)
async def test_commands_need_a_valid_seat_token(
    api: Api, headers: dict[str, str], code: str
) -> None:
    game_id, _ = await api.seated_game()
    before = await stream_version(api, game_id)
    response = await api.client.post(
        f"/games/{game_id}/commands", json={"command_id": "c", "command": MOVE}, headers=headers
    )
    assert response.status_code == 401
    assert response.json()["code"] == code
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert await api.drain() == 0
    assert await stream_version(api, game_id) == before


async def test_a_token_of_another_game_is_refused(api: Api) -> None:
    game_id, _ = await api.seated_game()
    _, other_tokens = await api.seated_game()
    response = await api.client.post(
        f"/games/{game_id}/commands",
        json={"command_id": "c", "command": MOVE},
        headers=bearer(other_tokens[0]),
    )
    assert (response.status_code, response.json()["code"]) == (401, "token.invalid")


@pytest.mark.parametrize(
    "command",
    [
        {"type": "Teleport"},
        {"type": "Move"},
        {"type": "Move", "steps": "two"},
        {"type": "Move", "steps": 2, "extra": True},
        {"steps": 2},
    ],
    ids=["unknown type", "missing field", "wrong type", "unknown field", "no tag"],
)
async def test_a_command_the_game_cannot_decode_is_refused_before_the_queue(
    api: Api, command: dict[str, object]
) -> None:
    game_id, tokens = await api.seated_game()
    seat = (await turn(api, game_id))["to_act"][0]
    before = await stream_version(api, game_id)
    response = await api.client.post(
        f"/games/{game_id}/commands",
        json={"command_id": "c", "command": command},
        headers=bearer(tokens[seat]),
    )
    assert response.status_code == 422
    problem = response.json()
    assert problem["code"] == "command.bad_payload"
    assert problem["detail"].startswith("bad command")
    assert api.scheduler.scheduled == []
    assert await stream_version(api, game_id) == before


async def test_an_unknown_game_is_a_404_problem(api: Api) -> None:
    response = await api.client.post(
        "/games/no-such-game/commands",
        json={"command_id": "c", "command": MOVE},
        headers=bearer("whatever"),
    )
    assert response.status_code == 404
    assert response.json()["code"] == "game.not_found"


async def test_waits_beyond_the_bound_are_refused(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    response = await api.client.post(
        f"/games/{game_id}/commands",
        params={"wait": str(api.settings.max_wait_s + 1)},
        json={"command_id": "c", "command": MOVE},
        headers=bearer(tokens[0]),
    )
    assert (response.status_code, response.json()["code"]) == (400, "request.wait_too_long")
    assert api.scheduler.scheduled == []


async def test_another_seats_command_cannot_be_read(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    seat = (await turn(api, game_id))["to_act"][0]
    await api.client.post(
        f"/games/{game_id}/commands",
        json={"command_id": "mine", "command": MOVE},
        headers=bearer(tokens[seat]),
    )
    peek = await api.client.get(f"/games/{game_id}/commands/mine", headers=bearer(tokens[1 - seat]))
    assert (peek.status_code, peek.json()["code"]) == (404, "command.not_found")


@pytest.mark.parametrize("settings_overrides", [{"rate_per_seat": 2, "rate_window_s": 600}])
async def test_a_seat_over_its_command_rate_gets_429_with_retry_after(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    seat = (await turn(api, game_id))["to_act"][0]
    replies = [
        await api.client.post(
            f"/games/{game_id}/commands",
            json={"command_id": f"c-{n}", "command": MOVE},
            headers=bearer(tokens[seat]),
        )
        for n in range(3)
    ]
    assert [reply.status_code for reply in replies] == [202, 202, 429]
    assert replies[2].json()["code"] == "seat.rate_limited"
    assert int(replies[2].headers["retry-after"]) >= 1


async def test_an_applied_reply_says_who_acts_now_and_what_the_seat_may_send(api: Api) -> None:
    # Given a seated race game and a move by the seat to act, applied by the worker
    game_id, tokens = await api.seated_game()
    seat = (await turn(api, game_id))["to_act"][0]
    command = {"command_id": "c-1", "command": MOVE}
    await api.client.post(f"/games/{game_id}/commands", json=command, headers=bearer(tokens[seat]))
    await api.drain()
    # When the seat sends it again (a retry) and reads its outcome
    retried = await api.client.post(
        f"/games/{game_id}/commands", json=command, headers=bearer(tokens[seat])
    )
    read = await api.client.get(f"/games/{game_id}/commands/c-1", headers=bearer(tokens[seat]))
    # Then both replies carry the game's version, who acts, and no legal commands (not its turn)
    now = await turn(api, game_id, tokens[seat])
    for reply in (retried, read):
        assert reply.status_code == 200
        body = reply.json()
        assert body["status"] == "applied"
        assert body["version"] == now["version"] == await stream_version(api, game_id)
        assert body["to_act"] == now["to_act"] == [1 - seat]
        assert body["legal_commands"] == []


async def test_a_whole_turn_is_one_round_trip_per_move(api: Api) -> None:
    # Given a Looot game, whose seats make several moves in a turn (vikings, tiles, EndTurn)
    created = await api.client.post("/games", json={"game": "looot", "config": {"players": 2}})
    game_id = created.json()["game_id"]
    tokens = [
        (await api.client.post(f"/games/{game_id}/seats", json={})).json()["token"]
        for _ in range(2)
    ]
    first = await turn(api, game_id, tokens[(await turn(api, game_id))["to_act"][0]])
    seat, legal = first["seat"], first["legal_commands"]
    # When the seat plays only from the replies to its submissions, for a few moves
    moves = 0
    while legal and moves < 12:
        command = {"command_id": f"m-{moves}", "command": legal[0]}
        await api.client.post(
            f"/games/{game_id}/commands", json=command, headers=bearer(tokens[seat])
        )
        await api.drain()
        reply = await api.client.post(
            f"/games/{game_id}/commands", json=command, headers=bearer(tokens[seat])
        )
        body = reply.json()
        # Then each reply is what GET /turn says for the seat at the same version
        now = await turn(api, game_id, tokens[seat])
        assert (body["version"], body["to_act"]) == (now["version"], now["to_act"])
        assert body["legal_commands"] == now["legal_commands"]
        legal = body["legal_commands"]
        moves += 1
    # and the seat moved more than once in its turn, then handed over (no legal commands left)
    assert moves >= 2
    assert legal == []
    assert seat not in (await turn(api, game_id))["to_act"]


async def test_two_seats_may_use_one_command_id_and_each_reads_its_own(api: Api) -> None:
    # Given the seat to act moved under the id "m", and seat-only ids "a-only"
    game_id, tokens = await api.seated_game()
    first = (await turn(api, game_id))["to_act"][0]
    second = 1 - first
    url = f"/games/{game_id}/commands"

    async def send(seat: int, command_id: str) -> Any:
        body = {"command_id": command_id, "command": MOVE}
        return await api.client.post(url, json=body, headers=bearer(tokens[seat]))

    assert (await send(first, "m")).status_code == 202
    await api.drain()
    # When the other seat sends a command under the same id
    reply = await send(second, "m")
    # Then it is a normal 202 for its own command, which the worker applies after the first
    assert reply.status_code == 202, reply.text
    assert reply.json() == {"command_id": "m", "status": "queued", "seat": second}
    await api.drain()
    outcomes = {}
    for seat in (first, second):
        read = await api.client.get(f"{url}/m", headers=bearer(tokens[seat]))
        assert (read.status_code, read.json()["seat"]) == (200, seat)
        outcomes[seat] = read.json()
    assert outcomes[first]["first_version"] < outcomes[second]["first_version"]
    assert {o["status"] for o in outcomes.values()} == {"applied"}
    # And a command only one seat sent is not found by the other, exactly as an unused id
    await send(first, "a-only")
    theirs = await api.client.get(f"{url}/a-only", headers=bearer(tokens[second]))
    unused = await api.client.get(f"{url}/never", headers=bearer(tokens[second]))
    assert (theirs.status_code, unused.status_code) == (404, 404)
    assert theirs.json()["code"] == unused.json()["code"] == "command.not_found"
    assert theirs.json()["detail"].replace("a-only", "never") == unused.json()["detail"]


async def test_a_command_audit_is_named_by_seat_and_id(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    first = (await turn(api, game_id))["to_act"][0]
    url = f"/games/{game_id}/commands"
    for seat in (first, 1 - first):
        body = {"command_id": "m", "command": MOVE}
        await api.client.post(url, json=body, headers=bearer(tokens[seat]))
        await api.drain()
    audit = f"{url}/m/audit"
    # With a token, the token's own command by default; `seat` names any seat's
    own = await api.client.get(audit, headers=bearer(tokens[1 - first]))
    named = await api.client.get(audit, params={"seat": first})
    assert (own.status_code, own.json()["command"]["seat"]) == (200, 1 - first)
    assert (named.status_code, named.json()["command"]["seat"]) == (200, first)
    # Without either, the id alone names two commands
    ambiguous = await api.client.get(audit)
    assert (ambiguous.status_code, ambiguous.json()["code"]) == (409, "command.ambiguous")


async def test_a_command_chosen_at_an_older_version_is_refused_stale_not_played_later(
    api: Api,
) -> None:
    # Given the seat to act, which chooses a move at the game's current version
    game_id, tokens = await api.seated_game()
    seat = (await turn(api, game_id))["to_act"][0]
    chosen_at = await stream_version(api, game_id)
    url = f"/games/{game_id}/commands"
    # When its first move is applied, the other seat moves, and then a late copy of that
    # move (chosen at the old version) arrives on the seat's next turn
    await api.client.post(
        url,
        json={"command_id": "first", "command": MOVE, "expected_version": chosen_at},
        headers=bearer(tokens[seat]),
    )
    await api.drain()
    await api.client.post(
        url, json={"command_id": "other", "command": MOVE}, headers=bearer(tokens[1 - seat])
    )
    await api.drain()
    assert (await turn(api, game_id))["to_act"] == [seat]
    before = await stream_version(api, game_id)
    await api.client.post(
        url,
        json={"command_id": "late", "command": MOVE, "expected_version": chosen_at},
        headers=bearer(tokens[seat]),
    )
    await api.drain()
    late = await api.client.post(
        url,
        params={"wait": "1"},
        json={"command_id": "late", "command": MOVE, "expected_version": chosen_at},
        headers=bearer(tokens[seat]),
    )
    # Then it is refused as stale (a conflict), recorded, and nothing was appended
    assert late.status_code == 409, late.text
    problem = late.json()
    assert problem["code"] == "command.stale"
    assert problem["details"] == {"expected_version": chosen_at, "version": before}
    assert await stream_version(api, game_id) == before
    recorded = await api.client.get(f"{url}/late", headers=bearer(tokens[seat]))
    assert (recorded.json()["status"], recorded.json()["code"]) == ("refused", "command.stale")
    audited = await api.client.get(f"{url}/late/audit", headers=bearer(tokens[seat]))
    assert audited.json()["command"]["expected_version"] == chosen_at
    assert audited.json()["refusal"]["code"] == "command.stale"
    # While a move naming the version it meets is applied
    current = await api.client.post(
        url,
        params={"wait": "1"},
        json={"command_id": "current", "command": MOVE, "expected_version": before},
        headers=bearer(tokens[seat]),
    )
    await api.drain()
    applied = await api.client.get(f"{url}/current", headers=bearer(tokens[seat]))
    assert current.status_code in (200, 202)
    assert applied.json()["status"] == "applied"


async def test_a_negative_expected_version_is_refused_before_the_queue(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    seat = (await turn(api, game_id))["to_act"][0]
    response = await api.client.post(
        f"/games/{game_id}/commands",
        json={"command_id": "neg", "command": MOVE, "expected_version": -1},
        headers=bearer(tokens[seat]),
    )
    assert response.status_code in (400, 422)
    assert await api.drain() == 0
