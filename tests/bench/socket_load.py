"""The bench's client of a seat's WebSocket channel (`/v1/games/{id}/socket`): one connection
per seat carries its commands and its updates, as a phone would hold it.

`SeatSocket` has `SeatStream`'s interface (the highest version shown, waiting beyond one), plus
`send` for the seat's commands, so `load.paced` runs over either channel.
"""

from __future__ import annotations

import asyncio
import re

import aiohttp
import msgspec

from tests.bench.load import Table

# The head of a live frame: {"type":"event"|"view"|"patch","version":N,...
LIVE_FRAME = re.compile(rb'^\{"type":"(?:event|view|patch)","version":(\d+)')
COMMAND_FRAME_HEAD = b'{"type":"command",'


class SeatSocket:
    """One seat's WebSocket: the highest version it has shown so far, and its commands."""

    def __init__(self, http: aiohttp.ClientSession, table: Table, seat: int) -> None:
        self.version = -1
        self._changed = asyncio.Condition()
        self._opened = asyncio.Event()
        self._socket: aiohttp.ClientWebSocketResponse | None = None
        self._task = asyncio.create_task(self._read(http, table, seat))

    async def _read(self, http: aiohttp.ClientSession, table: Table, seat: int) -> None:
        path = f"/v1/games/{table.game_id}/socket"
        async with http.ws_connect(path, autoping=True, max_msg_size=0) as socket:
            self._socket = socket
            await socket.send_bytes(
                msgspec.json.encode({"type": "hello", "token": table.tokens[seat]})
            )
            async for message in socket:
                data = message.data if isinstance(message.data, bytes) else message.data.encode()
                found = LIVE_FRAME.match(data)
                if found is None:
                    if data.startswith(b'{"type":"problem"'):
                        raise RuntimeError(f"socket problem: {data[:300]!r}")
                    continue  # a command's outcome: the version it made shows on the feed
                async with self._changed:
                    self.version = max(self.version, int(found.group(1)))
                    self._changed.notify_all()
                self._opened.set()

    async def send(self, body: bytes) -> None:
        """Send a command: `body` is a submission (`{"command_id", "command"}`) as POSTed."""
        assert self._socket is not None, "send after opened()"
        await self._socket.send_str((COMMAND_FRAME_HEAD + body[1:]).decode())

    async def opened(self) -> None:
        """Wait for the first view (the socket then reports every later version)."""
        await self._opened.wait()

    async def beyond(self, version: int) -> int:
        """Wait until the socket shows a version above `version`; return it."""
        async with self._changed:
            await self._changed.wait_for(lambda: self.version > version)
            return self.version

    async def close(self) -> None:
        """Stop reading and close the connection."""
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
