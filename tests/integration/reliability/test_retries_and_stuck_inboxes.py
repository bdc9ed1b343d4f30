"""A client that times out and retries with the same command id gets the one outcome; commands
left in an inbox when their drain runner died with its worker are picked up without help."""

from __future__ import annotations

import time

import pytest
import redis

from service.adapters.store.keys import GameKeys

from .conftest import Stack, wait_until
from .figures import record_figures

pytestmark = pytest.mark.redis

MOVE = {"type": "Move", "steps": 2}


def test_a_client_that_times_out_and_retries_gets_the_one_outcome(stack: Stack) -> None:
    # Given a game and no worker running yet
    game_id, tokens = stack.seated_game()
    seat = min(stack.turn(game_id)["to_act"])
    headers = stack.bearer(tokens[seat])
    before = stack.version(game_id)
    body = {"command_id": "retry-me", "command": MOVE}
    # When the client waits for the outcome and gives up (still queued)
    first = stack.http.post(
        f"/games/{game_id}/commands", params={"wait": 0.3}, json=body, headers=headers
    )
    # and retries with the same id, while workers start, then once more after the outcome
    stack.workers.start(2)
    second = stack.http.post(
        f"/games/{game_id}/commands", params={"wait": 8}, json=body, headers=headers
    )
    third = stack.http.post(f"/games/{game_id}/commands", json=body, headers=headers)
    # Then the first reply says queued, and both retries carry the same applied outcome
    assert first.status_code == 202 and first.json()["status"] == "queued"
    assert second.status_code == 200 and third.status_code == 200
    assert second.json() == third.json()
    applied = second.json()
    assert applied["status"] == "applied"
    # And the command applied once: its events are exactly its span, right after `before`
    events = stack.http.get(f"/games/{game_id}/events", params={"after": before}).json()
    mine = [record["version"] for record in events["events"] if record["command_id"] == "retry-me"]
    assert mine == list(range(applied["first_version"], applied["last_version"] + 1))
    assert applied["first_version"] == before + 1


def test_a_retry_with_another_body_is_a_conflict_not_a_second_command(stack: Stack) -> None:
    # Given a command applied
    stack.workers.start(1)
    game_id, tokens = stack.seated_game()
    seat = min(stack.turn(game_id)["to_act"])
    headers = stack.bearer(tokens[seat])
    body = {"command_id": "once", "command": MOVE}
    assert (
        stack.http.post(
            f"/games/{game_id}/commands", params={"wait": 8}, json=body, headers=headers
        ).status_code
        == 200
    )
    version = stack.version(game_id)
    # When the same id comes with another command
    other = {"command_id": "once", "command": {"type": "Move", "steps": 1}}
    reply = stack.http.post(f"/games/{game_id}/commands", json=other, headers=headers)
    # Then it is a 409 problem and nothing changed
    assert reply.status_code == 409
    assert reply.headers["content-type"].startswith("application/problem+json")
    assert reply.json()["code"] == "command.id_reused"
    assert stack.version(game_id) == version


# Small batches, one game a round: draining the inboxes takes many rounds, so the kill can
# land while a worker holds a lease (one round of whole inboxes takes a few milliseconds).
@pytest.mark.parametrize("stack_overrides", [{"batch_size": 2, "round_size": 1}])
def test_commands_stuck_in_an_inbox_when_the_worker_dies_are_picked_up(stack: Stack) -> None:
    # Given games whose inboxes fill while one worker drains them
    games = [stack.seated_game(target=200) for _ in range(4)]
    direct = redis.Redis.from_url(stack.settings.redis_url)
    sent: list[tuple[str, str, str]] = []
    for game_id, tokens in games:
        for n in range(30):
            # Both seats send: one in turn, the other out of turn (refused): all get decided.
            seat = n % 2
            reply = stack.http.post(
                f"/games/{game_id}/commands",
                json={"command_id": f"s{n}", "command": MOVE},
                headers=stack.bearer(tokens[seat]),
            )
            assert reply.status_code == 202, reply.text
            sent.append((game_id, f"s{n}", tokens[seat]))
    stack.workers.start(1)

    # When the worker is killed (SIGKILL) as soon as it holds a game's lease: a round holds
    # it for about a millisecond, so the four leases are polled in one call, without pause
    leases = [GameKeys(stack.settings.key_prefix, game_id).lease for game_id, _ in games]
    deadline = time.monotonic() + 20
    while not direct.exists(*leases):
        assert time.monotonic() < deadline, "timed out waiting for a worker to take a lease"
    stack.workers.kill(0)

    def waiting() -> list[tuple[str, str, str]]:
        return [
            (game_id, command_id, token)
            for game_id, command_id, token in sent
            if stack.http.get(
                f"/games/{game_id}/commands/{command_id}", headers=stack.bearer(token)
            ).json()["status"]
            == "queued"
        ]

    stuck = len(waiting())
    # and a new worker starts, with nobody submitting anything more
    stack.workers.start(1)
    # Then every command is decided (the lease expires, the sweeper re-queues the drains)
    wait_until(lambda: not waiting(), 30, "every stuck command to be decided")
    assert stuck > 0, "the kill came after every command was decided: nothing was stuck"
    direct.close()
    record_figures("stuck_inboxes", games=len(games), commands=len(sent), stuck_at_kill=stuck)
