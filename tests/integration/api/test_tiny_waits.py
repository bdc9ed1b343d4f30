"""A wait so short that it ends before the server has even subscribed to the game's
notifications (a few nanoseconds, as a fuzzer sends), or in the middle of a read (a
millisecond or two), answers at once, and leaves no later request waiting."""

from __future__ import annotations

import time

import httpx

from .conftest import LiveService


def to_act(http: httpx.Client, game_id: str) -> int:
    """The seat the game waits for, once the worker has started it."""
    deadline = time.monotonic() + 10
    while not (seats := http.get(f"/games/{game_id}/turn").json()["to_act"]):
        assert time.monotonic() < deadline, "the game never started"
        time.sleep(0.05)
    return int(seats[0])


def test_submits_with_vanishing_waits_are_answered_and_hold_nothing_up(
    live_service: LiveService,
) -> None:
    with httpx.Client(base_url=live_service.url, timeout=5) as http:
        config = {"players": 2, "target": 500}
        created = http.post("/games", json={"game": "race", "config": config}).json()
        game_id = created["game_id"]
        tokens = [http.post(f"/games/{game_id}/seats", json={}).json()["token"] for _ in "ab"]
        for n, wait in enumerate(
            ["1.1125369292536007e-308", "1e-12", "1e-9", "0.000001", "0.0011", "0.002"] * 8
        ):
            acting = to_act(http, game_id)
            for seat in (acting, 1 - acting):  # one in turn, one out of turn (refused)
                reply = http.post(
                    f"/games/{game_id}/commands",
                    params={"wait": wait},
                    json={"command_id": f"w{n}-{seat}", "command": {"type": "Move", "steps": 1}},
                    headers={"authorization": f"Bearer {tokens[seat]}"},
                )
                # Queued, or already decided when the outcome was read: applied, or refused
                # out of turn (the turn read above may predate the last command's move).
                decided = reply.status_code == 422 and reply.json()["code"] == "turn.not_yours"
                assert reply.status_code in (200, 202) or decided, reply.text
            # and a turn read waiting that little for the next version answers at once too
            now = http.get(f"/games/{game_id}/turn").json()["version"]
            waited = http.get(f"/games/{game_id}/turn", params={"after": now, "wait": wait})
            assert waited.status_code == 200, waited.text
        assert http.get(f"/games/{game_id}/turn").status_code == 200
