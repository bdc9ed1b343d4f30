"""Resuming the live stream: two independent SSE clients, disconnected at seeded random points
over whole games, see every version the seat may see once, and end with the game's view.

`httpx-sse` follows one seat with its token in the Authorization header and resumes with the
Last-Event-ID header; the npm `eventsource` package (the browser's EventSource API, run by
node) follows the other seat with single-use tickets and `last_event_id`, as a browser must.
"""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import pytest
from httpx_sse import connect_sse
from redis.asyncio import Redis

from service import bootstrap
from service.core.codec import codec_for
from service.core.projections import visible_records
from tests.asyncapi_messages import STREAM, AsyncApiMessages

from .conftest import LiveService

pytestmark = pytest.mark.redis

DISCONNECTS = 1000  # per client, at least
BUDGETS = [0, 1, 1, 2, 3, 5]  # messages read before a disconnect (0: right after the headers)
RACE = {"game": "race", "config": {"players": 2, "target": 30}}
JS_CLIENTS = Path(__file__).resolve().parents[2] / "js"


@dataclass
class Received:
    """What one client has taken from a seat's stream, checked message by message."""

    events: list[int] = field(default_factory=list)
    view: Any = None
    view_at: int = -1  # the version of the view the client holds
    last_id: int = 0
    connections: int = 0
    messages: AsyncApiMessages | None = None  # checks each message against the document

    def absorb(self, kind: str, message_id: str, data: str) -> None:
        """Take one message; fails on anything sent twice, out of order, not applying, or not
        as the AsyncAPI document declares it."""
        version = int(message_id)
        if self.messages is not None:
            self.messages.check(STREAM, kind, json.loads(data))
        assert version >= self.last_id, f"ids went back from {self.last_id} to {version}"
        if kind == "event":
            assert json.loads(data)["version"] == version
            assert not self.events or version > self.events[-1], f"event {version} twice"
            self.events.append(version)
        elif kind == "view":
            self.view = json.loads(data)
        elif kind == "patch":
            self.view = jsonpatch.apply_patch(self.view, json.loads(data))
        else:
            raise AssertionError(f"unknown message {kind!r}")
        if kind != "event":
            assert self.view["version"] == version
            self.view_at = version
        self.last_id = version


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def seated_race(http: httpx.Client) -> tuple[str, list[str]]:
    game_id = http.post("/v1/games", json=RACE).json()["game_id"]
    return game_id, [http.post(f"/v1/games/{game_id}/seats", json={}).json()["token"] for _ in "ab"]


def play_to_the_end(http: httpx.Client, game_id: str, tokens: list[str], rng: random.Random) -> int:
    """Random legal moves until the game is over; its final version."""
    for number in range(10_000):
        public = http.get(f"/v1/games/{game_id}/turn").json()
        if public["finished"]:
            return int(public["version"])
        seat = public["to_act"][0]
        options = http.get(f"/v1/games/{game_id}/turn", headers=auth(tokens[seat])).json()
        command = rng.choice(options["legal_commands"])
        reply = http.post(
            f"/v1/games/{game_id}/commands",
            params={"wait": "5"},
            json={"command_id": f"m{number}", "command": command},
            headers=auth(tokens[seat]),
        )
        assert reply.status_code == 200, reply.text
    raise AssertionError("the game did not end")


def expected_versions(service: LiveService, game_id: str, seat: int) -> tuple[set[int], int]:
    """(versions the seat may see while the game is on, every version) of a finished game."""

    async def read() -> tuple[set[int], int]:
        redis = Redis.from_url(service.settings.redis_url)
        try:
            store = bootstrap.store(redis, service.settings)
            stored = await store.read(game_id)
            codec = codec_for("race")
            shown = visible_records(codec, stored, seat, finished=False)
            return {record.version for record in shown}, stored[-1].version
        finally:
            await redis.aclose()

    return asyncio.run(read())


def check(received: Received, service: LiveService, game_id: str, seat: int, final: int) -> None:
    """Nothing the seat may see missed, nothing twice, and the game's own last view."""
    during_play, last = expected_versions(service, game_id, seat)
    assert last == final
    missed = sorted(during_play - set(received.events))
    assert missed == [], f"versions missed: {missed}"
    assert len(received.events) == len(set(received.events))
    assert set(received.events) <= set(range(1, final + 1))
    assert received.view_at == final
    with httpx.Client(base_url=service.url, timeout=10) as http:
        token_view = http.get(f"/v1/games/{game_id}/view").json()
    assert received.view["version"] == token_view["version"] == final


def follow_with_httpx_sse(
    url: str, game_id: str, token: str, rng: random.Random, final: list[int]
) -> Received:
    """Follow a seat's stream, disconnecting after a random number of messages each time."""
    received = Received()
    # A short read timeout: an idle connection (nothing new yet) is dropped and resumed too.
    with httpx.Client(base_url=url, timeout=httpx.Timeout(10, read=0.5)) as http:
        while not (final and received.view_at >= final[0]):
            budget = rng.choice(BUDGETS)
            # From version 0 on the first connection (without it, a stream opens at the
            # current view), then from the last message's id.
            headers = {**auth(token), "last-event-id": str(received.last_id)}
            received.connections += 1
            try:
                with connect_sse(
                    http, "GET", f"/v1/games/{game_id}/stream", headers=headers
                ) as sse:
                    assert sse.response.status_code == 200, sse.response.read()
                    for message in sse.iter_sse() if budget else ():
                        received.absorb(message.event, message.id, message.data)
                        budget -= 1
                        if budget == 0 or (final and received.view_at >= final[0]):
                            break
            except httpx.ReadTimeout:
                pass  # idle: resume like any other disconnect
    return received


@pytest.fixture(scope="module")
def node_follower() -> Iterator[Path]:
    """The eventsource package installed from the committed lockfile (skips without node)."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("node and npm are needed for the eventsource client (not installed)")
    if not (JS_CLIENTS / "node_modules" / "eventsource").is_dir():
        installed = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"], cwd=JS_CLIENTS, capture_output=True, text=True
        )
        if installed.returncode != 0:
            pytest.skip(f"npm could not install the eventsource client: {installed.stderr[-500:]}")
    yield JS_CLIENTS / "follow.mjs"


def test_httpx_sse_resumes_over_a_thousand_disconnects_without_a_gap(
    live_service: LiveService,
) -> None:
    rng = random.Random(20261123)
    disconnects = games = 0
    with httpx.Client(base_url=live_service.url, timeout=10) as http:
        while disconnects < DISCONNECTS or games < 2:
            game_id, tokens = seated_race(http)
            final: list[int] = []  # set once the game is over
            with ThreadPoolExecutor(1) as pool:
                following = pool.submit(
                    follow_with_httpx_sse, live_service.url, game_id, tokens[0], rng, final
                )
                final.append(play_to_the_end(http, game_id, tokens, random.Random(games)))
                received = following.result(timeout=120)
            check(received, live_service, game_id, 0, final[0])
            disconnects += received.connections
            games += 1
    assert disconnects >= DISCONNECTS


def test_the_eventsource_package_resumes_with_tickets_without_a_gap(
    live_service: LiveService, node_follower: Path, asyncapi_messages: AsyncApiMessages
) -> None:
    disconnects = games = 0
    with httpx.Client(base_url=live_service.url, timeout=10) as http:
        while disconnects < DISCONNECTS or games < 2:
            game_id, tokens = seated_race(http)
            node = subprocess.Popen(
                ["node", str(node_follower), live_service.url, game_id, tokens[1], str(games)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            assert node.stdin is not None and node.stdout is not None
            final = play_to_the_end(http, game_id, tokens, random.Random(1000 + games))
            node.stdin.write(f"{final}\n")
            node.stdin.flush()
            received = Received(messages=asyncapi_messages)
            for line in node.stdout:
                message = json.loads(line)
                assert "error" not in message, message["error"]
                if "connect" in message:
                    received.connections += 1
                elif "kind" in message:
                    received.absorb(message["kind"], message["id"], message["data"])
            assert node.wait(timeout=60) == 0
            check(received, live_service, game_id, 1, final)
            disconnects += received.connections
            games += 1
    assert disconnects >= DISCONNECTS
