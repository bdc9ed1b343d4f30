"""The WebSocket protocol's transport: the writes of one event-loop turn reach the socket as
one write, in order; closing sends what was gathered first."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from service.api.ws_protocol import TurnBufferedTransport

pytestmark = pytest.mark.anyio


class RecordingTransport(asyncio.Transport):
    """A transport that keeps what is written to it, and whether it was closed."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: Any) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def get_write_buffer_size(self) -> int:
        return 0  # written at once


async def test_a_turns_writes_leave_together_in_order() -> None:
    socket = RecordingTransport()
    buffered = TurnBufferedTransport(socket, asyncio.get_running_loop())

    buffered.write(b"event")
    buffered.write(b"")
    buffered.writelines([b"|patch", b"|pong"])
    assert socket.writes == []  # not before the turn's other callbacks have run
    await asyncio.sleep(0)
    buffered.write(b"next turn")
    await asyncio.sleep(0)

    assert socket.writes == [b"event|patch|pong", b"next turn"]
    assert buffered.get_write_buffer_size() == 0


async def test_closing_writes_what_was_gathered_first() -> None:
    socket = RecordingTransport()
    buffered = TurnBufferedTransport(socket, asyncio.get_running_loop())

    buffered.write(b"last frame")
    buffered.write(b"close frame")
    buffered.close()
    await asyncio.sleep(0)

    assert socket.writes == [b"last frame" + b"close frame"]
    assert socket.closed and buffered.is_closing()


async def test_nothing_is_written_to_a_closed_connection() -> None:
    socket = RecordingTransport()
    buffered = TurnBufferedTransport(socket, asyncio.get_running_loop())

    buffered.write(b"frame")
    socket.close()  # the peer went away before the turn ended
    await asyncio.sleep(0)

    assert socket.writes == []
