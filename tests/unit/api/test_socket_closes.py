"""A seat's WebSocket refused for the reasons HTTP answers with a problem closes with that
problem: a Redis outage is the 503's code and a close 1013 (try again later), never a 4500;
a frame the protocol will not read is told its 413 problem before the close 1009."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from service.adapters.embedded_redis import free_port
from service.api import create_app
from service.api.server import SkaldServer, uvicorn_config
from service.cli.processes import ApiServer
from service.facade.skald import Skald
from service.shared.errors import Unavailable
from service.shared.settings import Settings

GAME_ID = "abcdefabcdef"
FRAME_TIMEOUT_S = 10.0
MAX_BODY_BYTES = 4096


def served(settings: Settings, connect: Any = None) -> Iterator[str]:
    """The app on a free port in a thread (the facade from `connect` when given); its ws URL."""
    port = free_port()
    api = ApiServer(settings, "127.0.0.1", port)
    if connect is not None:
        app = create_app(settings, connect)
        api.server = SkaldServer(uvicorn_config(app, settings, "127.0.0.1", port))
    api.start_in_thread()
    try:
        yield api.url.replace("http://", "ws://") + f"/v1/games/{GAME_ID}/socket"
    finally:
        api.stop()


def redis_down_settings() -> Settings:
    """Settings naming a Redis nobody listens on."""
    return Settings(
        redis_url=f"redis://127.0.0.1:{free_port()}/0",
        key_prefix="socket-closes:",
        max_body_bytes=MAX_BODY_BYTES,
    )


@pytest.fixture
def redis_down() -> Iterator[str]:
    yield from served(redis_down_settings())


@pytest.fixture
def facade_unavailable() -> Iterator[str]:
    async def unavailable(_: Settings) -> Skald:
        raise Unavailable("redis.unavailable", "storage unavailable: connection refused")

    yield from served(redis_down_settings(), unavailable)


def last_frames(socket: ClientConnection) -> tuple[list[dict[str, Any]], ConnectionClosed]:
    """Every frame until the server closes, and how it closed."""
    frames = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            frames.append(json.loads(socket.recv(timeout=FRAME_TIMEOUT_S)))
    return frames, closed.value


@pytest.mark.parametrize("server", ["redis_down", "facade_unavailable"])
def test_a_hello_during_a_redis_outage_is_told_the_503_and_to_try_again_later(
    server: str, request: pytest.FixtureRequest
) -> None:
    url: str = request.getfixturevalue(server)
    with connect(url) as socket:
        # The facade failing, the server refuses before reading the hello: it may be closed
        with contextlib.suppress(ConnectionClosed):
            socket.send(json.dumps({"type": "hello", "token": "a-seat-token"}))
        frames, closed = last_frames(socket)
    assert [frame["type"] for frame in frames] == ["problem"]
    problem = frames[0]["problem"]
    assert problem["status"] == 503
    assert problem["code"] == "redis.unavailable"
    assert closed.rcvd is not None
    assert (closed.rcvd.code, closed.rcvd.reason) == (1013, "redis.unavailable")


def test_a_frame_over_what_the_protocol_reads_gets_the_413_problem_before_the_close(
    redis_down: str,
) -> None:
    with connect(redis_down, max_size=None) as socket:
        socket.send("x" * (MAX_BODY_BYTES * 4))
        frames, closed = last_frames(socket)
    assert [frame["type"] for frame in frames] == ["problem"]
    problem = frames[0]["problem"]
    assert (problem["status"], problem["code"]) == (413, "request.too_large")
    assert problem["details"] == {"max_bytes": MAX_BODY_BYTES}
    assert closed.rcvd is not None
    assert closed.rcvd.code == 1009
