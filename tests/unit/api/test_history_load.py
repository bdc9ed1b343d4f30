"""History requests run in a bounded pool of their own: however busy, they never hold up a move,
and past the bound they are refused with 429 and Retry-After."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx
import pytest

from service.api.asgi import litestar_of
from service.api.history_gate import HISTORY_GATE_STATE_KEY, HistoryGate
from tests.fakes.race import race_config

from .conftest import Api, bearer
from .test_problems import assert_problem

pytestmark = pytest.mark.anyio
BOUND = 3


def gate_of(api: Api) -> HistoryGate:
    """The history gate of the app under test (inside the logging and metrics middleware)."""
    gate: HistoryGate = litestar_of(api.app).state[HISTORY_GATE_STATE_KEY]
    return gate


async def until(condition: Any) -> None:
    """Wait (at most 10 s) until `condition()` holds: the gate signals no event for it."""
    async with asyncio.timeout(10):
        while not condition():
            await asyncio.sleep(0.005)


@pytest.mark.parametrize(
    "settings_overrides", [{"history_threads": 1, "history_max_inflight": BOUND}]
)
async def test_busy_history_holds_up_no_move_and_past_its_bound_is_429(api: Api) -> None:
    # Requests go out on this test's loop, concurrently (the test client answers one at a time)
    transport = httpx.ASGITransport(app=api.app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        # Given a seated game, and the history pool's only thread held busy
        game_id = (
            await http.post("/games", json={"game": "race", "config": race_config()})
        ).json()["game_id"]
        tokens = [(await http.post(f"/games/{game_id}/seats", json={})).json()["token"]]
        tokens.append((await http.post(f"/games/{game_id}/seats", json={})).json()["token"])
        seat = (await http.get(f"/games/{game_id}/turn")).json()["to_act"][0]
        before = (await http.get(f"/games/{game_id}/events")).json()["last_version"]
        gate = gate_of(api)
        release = threading.Event()
        holder = asyncio.create_task(gate.run(release.wait))
        # When as many history requests as the bound allows wait for that thread
        paths = ["replay", "audit/1", "fairness"]
        waiting = [asyncio.create_task(http.get(f"/games/{game_id}/{path}")) for path in paths]
        await until(lambda: gate.inflight == BOUND)
        refused = await http.get(f"/games/{game_id}/replay")
        # Then one more is refused at once, and a move is still applied and answered meanwhile
        submitted = await http.post(
            f"/games/{game_id}/commands",
            json={"command_id": "move-1", "command": {"type": "Move", "steps": 1}},
            headers=bearer(tokens[seat]),
        )
        await api.drain()
        outcome = await http.get(f"/games/{game_id}/commands/move-1", headers=bearer(tokens[seat]))
        after = (await http.get(f"/games/{game_id}/events")).json()["last_version"]
        still_waiting = [not task.done() for task in waiting]
        # And once the thread is free, every waiting history request is answered
        release.set()
        await holder
        answers = await asyncio.gather(*waiting)
        again = await http.get(f"/games/{game_id}/replay")

    assert_problem(refused, 429, "history.busy")
    assert int(refused.headers["retry-after"]) >= 1
    assert submitted.status_code == 202
    assert (outcome.status_code, outcome.json()["status"]) == (200, "applied")
    assert after > before
    assert still_waiting == [True, True, True]
    assert [answer.status_code for answer in answers] == [200, 200, 200]
    assert (gate.inflight, again.status_code) == (0, 200)
