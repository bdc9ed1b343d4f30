"""Redis killed with SIGKILL and restarted under the API and workers (AOF, appendfsync always):
nothing acknowledged is lost, the API answers 503 problem+json with Retry-After while it is
down, and API and workers carry on by themselves once it is back."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakes.players import ClientBot
from tests.fakes.poison import NAME as POISONED
from tests.fakes.poison import POISONS, refusal_code
from tests.fakes.race import race_config

from .conftest import Stack, wait_until
from .figures import record_figures

pytestmark = pytest.mark.redis


@pytest.fixture
def stack_overrides() -> dict[str, Any]:
    """The poisoned race (tests/fakes/poison.py) installed beside the race."""
    return {"plugins": "tests.fakes.poison"}


def poisoned_game(stack: Stack) -> tuple[str, list[str]]:
    """A poisoned race with both seats taken: its id and the seats' tokens."""
    created = stack.http.post("/games", json={"game": POISONED, "config": race_config(2, 1000)})
    assert created.status_code == 201, created.text
    game_id: str = created.json()["game_id"]
    tokens = [stack.http.post(f"/games/{game_id}/seats", json={}).json()["token"] for _ in "ab"]
    return game_id, tokens


def send_poisons(stack: Stack, game_id: str, tokens: list[str], tag: str) -> list[int]:
    """Every poison, queued (202) by the seat to act; an int past 64 bits is a 422 at once.
    The HTTP statuses of the requests."""
    seat = min(stack.turn(game_id)["to_act"])
    statuses = []
    for steps in POISONS:
        reply = stack.http.post(
            f"/games/{game_id}/commands",
            json={
                "command_id": f"{tag}-poison-{steps}",
                "command": {"type": "Move", "steps": steps},
            },
            headers=stack.bearer(tokens[seat]),
        )
        assert reply.status_code == 202, reply.text
        statuses.append(reply.status_code)
    too_big = stack.http.post(
        f"/games/{game_id}/commands",
        json={"command_id": f"{tag}-too-big", "command": {"type": "Move", "steps": 2**64}},
        headers=stack.bearer(tokens[seat]),
    )
    assert too_big.status_code == 422 and too_big.json()["code"] == "command.out_of_range"
    statuses.append(too_big.status_code)
    return statuses


def move(stack: Stack, game_id: str, tokens: list[str], bot: ClientBot, command_id: str) -> Any:
    """One move of the seat to act, waiting for its outcome; the reply."""
    seat = min(stack.turn(game_id)["to_act"])
    options = stack.turn(game_id, tokens[seat])["legal_commands"]
    return stack.http.post(
        f"/games/{game_id}/commands",
        params={"wait": 8},
        json={"command_id": command_id, "command": bot.choose(options)},
        headers=stack.bearer(tokens[seat]),
    )


# Where the game stands at the time of a reply (`version`, `to_act`, `legal_commands`): they move
# on with the game, while what became of the command never changes.
NOW_FIELDS = ("version", "to_act", "legal_commands")


def outcome_of(reply: dict[str, Any]) -> dict[str, Any]:
    """What became of a command, from a reply about it."""
    return {field: value for field, value in reply.items() if field not in NOW_FIELDS}


def assert_unavailable_problem(response: Any) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert int(response.headers["retry-after"]) >= 1
    assert response.json()["status"] == 503


@pytest.mark.parametrize("kills", [pytest.param(1, id="once"), pytest.param(4, id="four",
                         marks=pytest.mark.slow)])  # fmt: skip
def test_nothing_acknowledged_is_lost_and_everyone_recovers(stack: Stack, kills: int) -> None:
    # Given a game played through the API, each move acknowledged as applied
    stack.workers.start(1)
    game_id, tokens = stack.seated_game(target=40)
    # (and a game whose seat sends every kind of poison command, queued just before each kill)
    poisoned_id, poisoned_tokens = poisoned_game(stack)
    poison_statuses: list[int] = []
    bot = ClientBot(7)
    acknowledged: dict[str, Any] = {}
    refusals = 0
    for outage in range(kills):
        for step in range(3):
            command_id = f"o{outage}-m{step}"
            reply = move(stack, game_id, tokens, bot, command_id)
            assert reply.status_code == 200, reply.text
            acknowledged[command_id] = reply.json()
        version = stack.version(game_id)
        poison_statuses += send_poisons(stack, poisoned_id, poisoned_tokens, f"o{outage}")

        # When Redis is killed
        stack.redis.kill()
        # Then every request that needs it is a 503 problem with Retry-After
        down = [
            stack.http.get(f"/games/{game_id}/view"),
            stack.http.get(f"/games/{game_id}/turn"),
            stack.http.post(
                f"/games/{game_id}/commands",
                json={"command_id": f"o{outage}-down", "command": {"type": "Move", "steps": 1}},
                headers=stack.bearer(tokens[0]),
            ),
            stack.http.post("/games", json={"game": "race", "config": {"players": 2}}),
        ]
        for response in down:
            assert_unavailable_problem(response)
        refusals += len(down)
        # (readiness is a probe: its 503 is a Health document, with Retry-After too)
        probe = stack.http.get("/readyz")
        assert probe.status_code == 503 and int(probe.headers["retry-after"]) >= 1
        assert stack.http.get("/healthz").status_code == 200  # the process itself lives

        # When Redis comes back on the same data
        stack.redis.start()
        wait_until(stack.ready, 20, "the API to be ready again")
        # Then nothing acknowledged was lost, and nothing refused was applied
        assert stack.version(game_id) == version
        for command_id, outcome in acknowledged.items():
            seat = outcome["seat"]
            again = stack.http.get(
                f"/games/{game_id}/commands/{command_id}", headers=stack.bearer(tokens[seat])
            )
            assert outcome_of(again.json()) == outcome_of(outcome)
        refused = stack.http.get(
            f"/games/{game_id}/commands/o{outage}-down", headers=stack.bearer(tokens[0])
        )
        assert refused.status_code == 404

    # And the worker, never restarted, plays the game on to its end
    step = 0
    while not stack.turn(game_id)["finished"]:
        reply = move(stack, game_id, tokens, bot, f"after-{step}")
        assert reply.status_code == 200, reply.text
        step += 1
    assert stack.workers.processes[0].poll() is None
    # And the poisoned game: every poison refused with its code, and a move after them applied
    after = move(stack, poisoned_id, poisoned_tokens, bot, "after-poisons")
    assert after.status_code == 200 and after.json()["status"] == "applied", after.text
    for outage in range(kills):
        for steps in POISONS:
            outcome = stack.http.get(
                f"/games/{poisoned_id}/commands/o{outage}-poison-{steps}",
                headers=stack.bearer(poisoned_tokens[0]),
            )
            if outcome.status_code == 404:  # sent by the other seat
                outcome = stack.http.get(
                    f"/games/{poisoned_id}/commands/o{outage}-poison-{steps}",
                    headers=stack.bearer(poisoned_tokens[1]),
                )
            poison_statuses.append(outcome.status_code)
            assert (outcome.json()["status"], outcome.json()["code"]) == (
                "refused",
                refusal_code(steps),
            )
    assert not [status for status in poison_statuses if status >= 500]
    record_figures(
        f"redis_outage_{kills}_kills",
        redis_kills=kills,
        acknowledged_commands=len(acknowledged),
        lost=0,
        refused_with_503=refusals,
        moves_after_recovery=step,
        poison_commands=kills * len(POISONS),
        poison_requests_5xx=0,
        poisoned_game_frozen=0,
    )


def test_a_queued_command_survives_a_redis_kill_and_is_applied_after(stack: Stack) -> None:
    # Given a command acknowledged as received (202 queued) while no worker runs
    game_id, tokens = stack.seated_game()
    seat = min(stack.turn(game_id)["to_act"])
    body = {"command_id": "queued", "command": {"type": "Move", "steps": 1}}
    headers = stack.bearer(tokens[seat])
    queued = stack.http.post(f"/games/{game_id}/commands", json=body, headers=headers)
    assert queued.status_code == 202
    # When Redis is killed and restarted, and only then a worker starts
    stack.redis.kill()
    stack.redis.start()
    wait_until(stack.ready, 20, "the API to be ready again")
    stack.workers.start(1)
    # Then the command was kept and is applied, once
    outcome = stack.http.get(
        f"/games/{game_id}/commands/queued", params={"wait": 8}, headers=headers
    ).json()
    assert outcome["status"] == "applied"
    assert outcome["last_version"] == stack.version(game_id)  # its events end the stream
