"""The `skald` command end to end, as a user runs it: subprocesses, an embedded Redis."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from service import bootstrap
from service.adapters.embedded_redis import EmbeddedRedis, free_port, running_url
from service.shared.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def skald_env(data_dir: Path) -> dict[str, str]:
    """A user's environment: no Redis configured (so Skald embeds one), the fake game loaded."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKALD_")}
    env.update(
        SKALD_DATA_DIR=str(data_dir),
        SKALD_PLUGINS="tests.fakes.race",
        PYTHONPATH=str(ROOT),
    )
    return env


def skald(*args: str, data_dir: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args],
        env=skald_env(data_dir),
        cwd=data_dir.parent,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def stored_events(data_dir: Path, game_id: str) -> list[dict[str, object]]:
    """The events of a game kept under `data_dir`, read back through a fresh embedded Redis."""

    async def read(url: str) -> list[dict[str, object]]:
        skald = await bootstrap.connect(Settings(redis_url=url, plugins="tests.fakes.race"))
        try:
            page = await skald.reads.events_after(game_id, 0, None, 1000)
        finally:
            await skald.close()
        return [record.event for record in page.events]

    with EmbeddedRedis(data_dir) as redis:
        return asyncio.run(read(redis.url))


@pytest.mark.parametrize(("game", "players"), [("race", 3), ("fjords", 4)])
def test_demo_plays_a_whole_game_and_keeps_it_in_the_data_directory(
    tmp_path: Path, game: str, players: int
) -> None:
    data_dir = tmp_path / ".skald"
    # When a user runs the demo with no Redis configured
    result = skald("demo", "--game", game, "--players", str(players), "--seed", "7",
                   data_dir=data_dir)  # fmt: skip
    # Then it prints a score table with every seat and the game id, and exits 0
    assert result.returncode == 0, result.stderr
    match = re.search(r"game id: (\S+)", result.stdout)
    assert match, result.stdout
    game_id = match.group(1)
    assert re.search(r"│ total +│", result.stdout), result.stdout
    assert all(f"bot {seat + 1}" in result.stdout for seat in range(players))
    # And its embedded Redis is gone, the game kept: finished, its seed revealed
    assert running_url(data_dir) is None
    events = stored_events(data_dir, game_id)
    assert events[0]["type"] == "GameCreated"
    assert events[-1]["type"] == "SeedRevealed"


def test_serve_runs_until_sigterm_then_stops_everything_and_keeps_the_data(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / ".skald"
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--workers", "1"],
        env=skald_env(data_dir),
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=5) as http:
            wait_until_ready(http, server)
            created = http.post("/games", json={"game": "race", "config": {"players": 2}})
            assert created.status_code == 201
            game_id = created.json()["game_id"]
        # When it is told to stop, as a container runtime would
        server.send_signal(signal.SIGTERM)
        output, _ = server.communicate(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    # Then it exits cleanly, stopping its workers and Redis, and the game is still there
    assert server.returncode == 0, output.decode()
    assert b'"embedded_redis.stopped"' in output
    assert running_url(data_dir) is None
    assert stored_events(data_dir, game_id)[0]["type"] == "GameCreated"


def wait_until_ready(http: httpx.Client, server: subprocess.Popen[bytes]) -> None:
    """Poll /readyz until the service answers (a child's start cannot be awaited otherwise)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert server.poll() is None, "skald serve exited early"
        try:
            if http.get("/readyz").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise AssertionError("skald serve did not become ready in 30 s")


GRACE_S = 3  # SKALD_SHUTDOWN_GRACE_S for the test below
# Stopping waits for the worker and the embedded Redis too: a few seconds on a busy machine.
STOP_MARGIN_S = 12


@contextmanager
def serving_a_race(
    tmp_path: Path,
) -> Iterator[tuple[subprocess.Popen[bytes], httpx.Client, str]]:
    """`skald serve` (no workers, a `GRACE_S` shutdown grace period), ready, with a new
    two-seat race: the server, a client of its API and the race's id. The server is killed on
    the way out if it still runs."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--workers", "0"],
        env={**skald_env(tmp_path / ".skald"), "SKALD_SHUTDOWN_GRACE_S": str(GRACE_S)},
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            wait_until_ready(http, server)
            created = http.post("/v1/games", json={"game": "race", "config": {"players": 2}})
            yield server, http, created.json()["game_id"]
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_serve_with_an_open_stream_stops_within_its_grace_period(
    tmp_path: Path, stop: signal.Signals
) -> None:
    # Given `skald serve` with a client following a game's live stream
    with serving_a_race(tmp_path) as (server, http, game_id):
        with http.stream("GET", f"/v1/games/{game_id}/stream") as stream:
            lines = stream.iter_lines()
            # (a first connection opens at the current view)
            assert next(line for line in lines if line.startswith("event:")) == "event: view"
            # When the server is interrupted (Ctrl+C) or terminated
            server.send_signal(stop)
            stopping = time.monotonic()
            # Then the stream ends (rather than keeping the server up) ...
            rest = list(lines)
        ended = time.monotonic() - stopping
        output, _ = server.communicate(timeout=GRACE_S + STOP_MARGIN_S)
        stopped = time.monotonic() - stopping
    # ... at once, and the server exits cleanly within its grace period
    assert "event: view" not in rest  # nothing moved: the stream only ended
    assert ended < GRACE_S, f"the stream outlived the grace period ({ended:.1f} s)"
    assert server.returncode == 0, output.decode()
    assert stopped < GRACE_S + STOP_MARGIN_S
    assert b'"embedded_redis.stopped"' in output


def test_serve_with_an_open_seat_socket_closes_it_and_stops_within_its_grace_period(
    tmp_path: Path,
) -> None:
    # Given `skald serve` with a seat following its game on its WebSocket
    with serving_a_race(tmp_path) as (server, http, game_id):
        token = http.post(f"/v1/games/{game_id}/seats", json={}).json()["token"]
        url = f"ws://127.0.0.1:{http.base_url.port}/v1/games/{game_id}/socket"
        with ws_connect(url) as socket:
            socket.send(json.dumps({"type": "hello", "token": token}))
            assert json.loads(socket.recv(timeout=10))["type"] == "view"
            assert json.loads(socket.recv(timeout=10))["type"] == "turn"
            # When the server is terminated
            server.send_signal(signal.SIGTERM)
            stopping = time.monotonic()
            # Then the server closes the connection, with nothing else sent
            with pytest.raises(ConnectionClosed) as closed:
                socket.recv(timeout=GRACE_S + STOP_MARGIN_S)
            ended = time.monotonic() - stopping
        output, _ = server.communicate(timeout=GRACE_S + STOP_MARGIN_S)
    # 1001 going away (the feed's end), or 1012 service restart (uvicorn's own, on shutdown)
    assert closed.value.rcvd is not None and closed.value.rcvd.code in (1001, 1012)
    assert ended < GRACE_S, f"the socket outlived the grace period ({ended:.1f} s)"
    assert server.returncode == 0, output.decode()
