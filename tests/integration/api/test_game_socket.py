"""On the running service: a seat's WebSocket carries its commands and its live updates."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.asyncapi_messages import AsyncApiMessages
from tests.bench.bench_socket_game import http_requests_answered

from .conftest import LiveService
from .test_live_reads import new_seated_race

pytestmark = pytest.mark.redis

FRAME_TIMEOUT_S = 10.0


def socket_url(live_service: LiveService, game_id: str) -> str:
    return live_service.url.replace("http://", "ws://") + f"/v1/games/{game_id}/socket"


@pytest.fixture(scope="module", autouse=True)
def asyncapi(asyncapi_messages: AsyncApiMessages) -> Iterator[AsyncApiMessages]:
    """Every frame these tests receive is checked against the served AsyncAPI document."""
    global MESSAGES
    MESSAGES = asyncapi_messages
    yield MESSAGES
    MESSAGES = None


MESSAGES: AsyncApiMessages | None = None


def receive(socket: ClientConnection) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(socket.recv(timeout=FRAME_TIMEOUT_S))
    assert MESSAGES is not None
    MESSAGES.check_frame(frame)
    return frame


def until_version(socket: ClientConnection, version: int) -> list[dict[str, Any]]:
    """The frames up to the first live frame at `version` or past it (outcomes included)."""
    frames = []
    while True:
        frame = receive(socket)
        frames.append(frame)
        if frame["type"] in ("view", "patch") and frame["version"] >= version:
            return frames


def hello(socket: ClientConnection, **fields: Any) -> None:
    socket.send(json.dumps({"type": "hello", **fields}))


def opening(socket: ClientConnection) -> dict[str, Any]:
    """The frames a connection opens with: the view, then the seat's turn at its version;
    the view."""
    view, turn = receive(socket), receive(socket)
    assert (view["type"], turn["type"]) == ("view", "turn")
    assert turn["version"] == view["version"] == turn["data"]["version"]
    return view


def command(command_id: str, steps: Any = 1, **extra: Any) -> str:
    body = {"command_id": command_id, "command": {"type": "Move", "steps": steps}}
    return json.dumps({"type": "command", **body, **extra})


def test_a_move_on_one_seats_socket_reaches_the_other_seat_as_the_stream_carries_it(
    live_service: LiveService, http: httpx.Client
) -> None:
    game_id, tokens, acting = new_seated_race(http)
    url = socket_url(live_service, game_id)
    with connect(url) as mover, connect(url) as watcher:
        hello(mover, token=tokens[acting])
        hello(watcher, token=tokens[1 - acting], view="whole")
        # Each socket opens at the current view, whole
        opened = [opening(mover), opening(watcher)]
        start = opened[0]["version"]
        assert opened[1]["version"] == start
        # When the seat to act moves over its socket
        mover.send(command("ws-1"))
        ack = receive(mover)
        assert ack["type"] == "outcome"
        assert ack["outcome"]["command_id"] == "ws-1"
        assert ack["outcome"]["status"] in ("queued", "applied")
        # Then the other seat gets the events, then the whole view at the new version
        seen = until_version(watcher, start + 1)
        events = [frame for frame in seen if frame["type"] == "event"]
        versions = [frame["version"] for frame in events]
        assert versions == list(range(start + 1, seen[-1]["version"] + 1))
        # The same records GET /events gives that seat
        auth = {"authorization": f"Bearer {tokens[1 - acting]}"}
        listed = http.get(
            f"/v1/games/{game_id}/events", params={"after": start}, headers=auth
        ).json()["events"]
        assert [frame["data"] for frame in events] == listed[: len(events)]
        assert seen[-1]["data"]["version"] == seen[-1]["version"]
        # And the mover's feed shows its own move: a patch to its last view (guarded by a
        # test of that view's version), or the view when no patch is smaller
        own = until_version(mover, seen[-1]["version"])
        assert own[-1]["type"] in ("patch", "view")
        if own[-1]["type"] == "patch":
            assert own[-1]["data"][0] == {"op": "test", "path": "/version", "value": start}
        else:
            assert own[-1]["data"]["version"] == seen[-1]["version"]


def test_a_command_with_wait_is_answered_once_decided(
    live_service: LiveService, http: httpx.Client
) -> None:
    game_id, tokens, acting = new_seated_race(http)
    with connect(socket_url(live_service, game_id)) as socket:
        hello(socket, token=tokens[acting])
        socket.send(command("ws-wait", wait=5))
        outcome = next(
            frame for frame in iter(lambda: receive(socket), None) if frame["type"] == "outcome"
        )
    assert outcome["outcome"]["status"] == "applied"
    assert outcome["outcome"]["command_id"] == "ws-wait"
    # The same command id over HTTP names the same outcome: one command, applied once
    again = http.post(
        f"/v1/games/{game_id}/commands",
        json={"command_id": "ws-wait", "command": {"type": "Move", "steps": 1}},
        headers={"authorization": f"Bearer {tokens[acting]}"},
    )
    assert again.status_code == 200
    assert again.json()["first_version"] == outcome["outcome"]["first_version"]


def test_a_command_breaking_its_contract_is_the_http_problem_and_changes_nothing(
    live_service: LiveService, http: httpx.Client
) -> None:
    game_id, tokens, acting = new_seated_race(http)
    auth = {"authorization": f"Bearer {tokens[acting]}"}
    before = http.get(f"/v1/games/{game_id}/turn", headers=auth).json()["version"]
    over_http = http.post(
        f"/v1/games/{game_id}/commands",
        json={"command_id": "bad-http", "command": {"type": "Move", "steps": "far"}},
        headers=auth,
    )
    assert over_http.status_code == 422
    with connect(socket_url(live_service, game_id)) as socket:
        hello(socket, token=tokens[acting])
        opening(socket)
        socket.send(command("bad-ws", steps="far"))
        refused = receive(socket)
        # Then the socket answers with the problem HTTP answers, naming the command
        assert refused["type"] == "problem"
        assert refused["command_id"] == "bad-ws"
        assert refused["problem"]["code"] == over_http.json()["code"]
        assert refused["problem"]["status"] == 422
        assert refused["problem"]["detail"] == over_http.json()["detail"]
        # Malformed JSON and unknown frames are problems too, and the connection stays open
        socket.send("{not json")
        assert receive(socket)["problem"]["code"] == "request.malformed"
        socket.send(json.dumps({"type": "teleport"}))
        assert receive(socket)["problem"]["code"] == "socket.bad_frame"
        socket.send(json.dumps({"type": "hello", "token": tokens[acting]}))
        assert receive(socket)["problem"]["code"] == "socket.hello_expected"
        # A valid command after all that still goes through
        socket.send(command("good-ws", wait=5))
        frames = iter(lambda: receive(socket), None)
        outcome = next(frame for frame in frames if frame["type"] == "outcome")
        assert outcome["outcome"]["status"] == "applied"
    # Nothing of the refused commands reached the game: one move only
    after = http.get(f"/v1/games/{game_id}/turn", headers=auth).json()["version"]
    assert after == outcome["outcome"]["last_version"] > before
    missing = http.get(f"/v1/games/{game_id}/commands/bad-ws", headers=auth)
    assert missing.status_code == 404


@pytest.mark.parametrize(
    "first",
    [
        {"type": "hello", "token": "not-a-seat-token"},
        {"type": "hello"},
        {"type": "command", "command_id": "c", "command": {"type": "Move", "steps": 1}},
    ],
)
def test_a_connection_without_a_valid_hello_gets_a_problem_and_is_closed(
    live_service: LiveService, http: httpx.Client, first: dict[str, Any]
) -> None:
    game_id, _, _ = new_seated_race(http)
    with connect(socket_url(live_service, game_id)) as socket:
        socket.send(json.dumps(first))
        problem = receive(socket)
        assert problem["type"] == "problem"
        assert problem["problem"]["status"] in (400, 401)
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=FRAME_TIMEOUT_S)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1008


def test_a_stream_ticket_opens_its_seats_socket_once(
    live_service: LiveService, http: httpx.Client
) -> None:
    game_id, tokens, acting = new_seated_race(http)
    auth = {"authorization": f"Bearer {tokens[acting]}"}
    ticket = http.post(f"/v1/games/{game_id}/stream-tickets", headers=auth).json()["ticket"]
    with connect(socket_url(live_service, game_id)) as socket:
        hello(socket, ticket=ticket)
        opening(socket)
        # The ticket proved the seat: its commands are that seat's
        socket.send(command("by-ticket", wait=5))
        frames = iter(lambda: receive(socket), None)
        outcome = next(frame for frame in frames if frame["type"] == "outcome")
        assert outcome["outcome"]["seat"] == acting
    with connect(socket_url(live_service, game_id)) as reused:
        hello(reused, ticket=ticket)
        problem = receive(reused)
    assert (problem["problem"]["status"], problem["problem"]["code"]) == (401, "ticket.invalid")


def test_a_resume_sends_the_events_after_the_version_asked_then_the_view(
    live_service: LiveService, http: httpx.Client
) -> None:
    game_id, tokens, acting = new_seated_race(http)
    auth = {"authorization": f"Bearer {tokens[acting]}"}
    start = http.get(f"/v1/games/{game_id}/turn", headers=auth).json()["version"]
    applied = http.post(
        f"/v1/games/{game_id}/commands",
        params={"wait": "5"},
        json={"command_id": "m-1", "command": {"type": "Move", "steps": 2}},
        headers=auth,
    ).json()
    with connect(socket_url(live_service, game_id)) as socket:
        hello(socket, token=tokens[1 - acting], after=start)
        frames = until_version(socket, applied["last_version"])
    assert [frame["type"] for frame in frames[:-1]] == ["event"] * (len(frames) - 1)
    assert [frame["version"] for frame in frames[:-1]] == list(
        range(start + 1, applied["last_version"] + 1)
    )
    assert frames[-1]["type"] == "view"


def test_a_frame_over_the_body_limit_is_a_413_problem_and_one_far_over_closes(
    live_service: LiveService, http: httpx.Client
) -> None:
    game_id, tokens, acting = new_seated_race(http)
    limit = live_service.settings.max_body_bytes
    padded = json.dumps(
        {"type": "command", "command_id": "big", "command": {"type": "Move", "pad": "x" * limit}}
    )
    with connect(socket_url(live_service, game_id)) as socket:
        hello(socket, token=tokens[acting])
        opening(socket)
        socket.send(padded)
        problem = receive(socket)
        assert (problem["problem"]["status"], problem["problem"]["code"]) == (
            413,
            "request.too_large",
        )
        socket.send("x" * (limit * 4))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                socket.recv(timeout=FRAME_TIMEOUT_S)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1009  # message too big


def answered_requests(http: httpx.Client) -> int:
    """The HTTP requests the server has answered (its own counter, scrapes left out), once
    the count stands still: a request is counted just after its reply is sent."""
    counted = http_requests_answered(http.get("/metrics").text)
    while True:
        time.sleep(0.05)
        again = http_requests_answered(http.get("/metrics").text)
        if again == counted:
            return counted
        counted = again


async def _play_seat_over_its_socket(url: str, token: str, seat: int) -> dict[str, Any]:
    """Play one seat to the end from its socket alone: every turn frame says whether the seat
    acts and what it may send; the first legal command is sent. The final turn."""
    moved_at: set[int] = set()
    async with ws_connect(url) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        last_view = -1
        while True:
            frame = json.loads(await asyncio.wait_for(socket.recv(), FRAME_TIMEOUT_S))
            assert MESSAGES is not None
            MESSAGES.check_frame(frame)
            if frame["type"] in ("view", "patch"):
                last_view = frame["version"]
            elif frame["type"] == "outcome":
                assert frame["outcome"]["status"] != "refused", frame
            elif frame["type"] == "turn":
                turn = frame["data"]
                assert frame["version"] == last_view == turn["version"]  # after its view
                if turn["finished"]:
                    return dict(turn)
                acts = seat in turn["to_act"]
                assert bool(turn["legal_commands"]) == acts
                if acts and turn["version"] not in moved_at:
                    moved_at.add(turn["version"])
                    body = {"command_id": f"s{seat}-v{turn['version']}"}
                    body["command"] = turn["legal_commands"][0]
                    await socket.send(json.dumps({"type": "command", **body}))
            else:
                assert frame["type"] == "event", frame


def test_a_whole_game_is_played_over_the_sockets_alone(
    live_service: LiveService, http: httpx.Client
) -> None:
    # Given a game whose seats are taken over HTTP, which the server counted
    game_id, tokens, _ = new_seated_race(http)
    url = socket_url(live_service, game_id)
    answered = answered_requests(http)
    assert answered >= 3  # the creation and both joins at least

    # When each seat plays from its socket's turn frames
    async def both() -> list[dict[str, Any]]:
        seats = [_play_seat_over_its_socket(url, token, n) for n, token in enumerate(tokens)]
        return list(await asyncio.gather(*seats))

    finals = asyncio.run(both())

    # Then the server answered no HTTP request meanwhile, over a whole game's moves
    assert answered_requests(http) == answered
    assert finals[0]["version"] > 10
    # and both sockets saw the end, with the outcome, and the server agrees
    assert finals[0]["outcome"] == finals[1]["outcome"] is not None
    assert all(final["phase"] == "finished" for final in finals)
    turn = http.get(f"/v1/games/{game_id}/turn").json()
    assert turn["finished"] and turn["version"] == finals[0]["version"]


def test_a_command_chosen_at_an_older_version_is_refused_stale_over_the_socket(
    live_service: LiveService, http: httpx.Client
) -> None:
    game_id, tokens, acting = new_seated_race(http)
    auth = {"authorization": f"Bearer {tokens[acting]}"}
    version = http.get(f"/v1/games/{game_id}/turn", headers=auth).json()["version"]
    with connect(socket_url(live_service, game_id)) as socket:
        hello(socket, token=tokens[acting])
        socket.send(command("ws-stale", wait=5, expected_version=version - 1))
        outcome = next(
            frame for frame in iter(lambda: receive(socket), None) if frame["type"] == "outcome"
        )
    assert outcome["outcome"]["status"] == "refused"
    assert outcome["outcome"]["code"] == "command.stale"
    assert http.get(f"/v1/games/{game_id}/turn", headers=auth).json()["version"] == version
