"""uvicorn's WebSocket protocol (the `websockets` package's sans-I/O implementation) with the
frames of one event-loop turn written together.

uvicorn writes each frame to the socket as it is sent: one `write` system call, and one TCP
segment through the loopback or the network, per frame. A seat's feed sends an update as
several frames in a row (its events, then its view or patch), and on this machine the
connection's writes were the largest single cost of the API process per move (about a sixth of
its CPU, profiled with py-spy at the ceiling). `CoalescingWebSocketProtocol` hands the protocol
a transport that gathers every write of the current turn of the event loop and passes them on
as one, once the turn's other callbacks have run: the same bytes in the same order (pongs and
the close frame go through it too), a turn of the loop later.

A frame over the protocol's size limit is never read: the protocol closes the connection
(1009). The client is told why first, as HTTP tells a body over the limit: the 413 problem
frame `request.too_large` goes out just before the close frame.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import CloseCode, Frame, Opcode

from service.shared.errors import InvalidInput

from .socket_channel import problem_frame

# A frame a little over the body limit reaches the app, which answers it with a 413 problem
# frame; far over it, the WebSocket protocol closes the connection (1009) without reading it,
# after the same problem frame.
WS_FRAME_SLACK_BYTES = 1024


class TurnBufferedTransport(asyncio.Transport):
    """A transport whose writes of one event-loop turn reach the socket in one write."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] = []

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not data:
            return
        if not self._pending:
            self._loop.call_soon(self.flush)
        self._pending.append(bytes(data))

    def writelines(self, list_of_data: Any) -> None:
        for data in list_of_data:
            self.write(data)

    def flush(self) -> None:
        """Write what this turn gathered (nothing once the connection is closing)."""
        if not self._pending:
            return
        pending, self._pending = self._pending, []
        if not self._transport.is_closing():
            self._transport.write(pending[0] if len(pending) == 1 else b"".join(pending))

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def abort(self) -> None:
        self._pending = []
        self._transport.abort()

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._transport.get_extra_info(name, default)

    def pause_reading(self) -> None:
        self._transport.pause_reading()

    def resume_reading(self) -> None:
        self._transport.resume_reading()

    def is_reading(self) -> bool:
        return self._transport.is_reading()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._transport.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._transport.get_protocol()

    def can_write_eof(self) -> bool:
        return self._transport.can_write_eof()

    def write_eof(self) -> None:
        self.flush()
        self._transport.write_eof()

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size() + sum(map(len, self._pending))

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._transport.get_write_buffer_limits()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._transport.set_write_buffer_limits(high, low)


class CoalescingWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's `websockets-sansio` protocol writing each turn's frames at once (see above)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not asyncio.Transport subclasses: duck-typed, as uvicorn does.
        super().connection_made(
            TurnBufferedTransport(cast(asyncio.Transport, transport), self.loop)
        )

    def handle_parser_exception(self) -> None:
        """A frame the protocol refused: a frame over the size limit is answered with the
        413 problem before the close frame the protocol queued (1009)."""
        closing = self.conn.close_sent
        too_big = closing is not None and closing.code == CloseCode.MESSAGE_TOO_BIG
        if self.handshake_complete and too_big:
            self.transport.write(_too_large_frame(self.config.ws_max_size))
        super().handle_parser_exception()


def _too_large_frame(ws_max_size: int) -> bytes:
    """The 413 problem of a frame the protocol would not read, as an unmasked text frame."""
    limit = ws_max_size - WS_FRAME_SLACK_BYTES
    error = InvalidInput(
        "request.too_large",
        f"a frame is at most {limit} bytes; this one was over {ws_max_size}: the connection "
        "closes (1009)",
        status=413,
        details={"max_bytes": limit},
    )
    return Frame(Opcode.TEXT, problem_frame(error, "ws-too-large")).serialize(mask=False)
