"""The bench's client of a seat's WebSocket channel (`/v1/games/{id}/socket`): one connection
per seat carries its commands and its updates, as a phone would hold it.

`SeatSocket` has `SeatStream`'s interface (the highest version shown, waiting beyond one), plus
`send` for the seat's commands, so `load.paced` runs over either channel.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable

import aiohttp
import msgspec

from contracts.api import CommandOutcome
from tests.bench.load import Table

# The head of a live frame: {"type":"event"|"view"|"patch","version":N,...
LIVE_FRAME = re.compile(rb'^\{"type":"(?:event|view|patch)","version":(\d+)')
COMMAND_FRAME_HEAD = b'{"type":"command",'
OUTCOME_FRAME_HEAD = b'{"type":"outcome","outcome":'
# How long a flood's last command waits for its decision on the socket (the server bounds it).
DECIDED_WAIT_S = 30


class _OutcomeFrame(msgspec.Struct):
    outcome: CommandOutcome


OUTCOME = msgspec.json.Decoder(_OutcomeFrame)


class SeatSocket:
    """One seat's WebSocket: the highest version it has shown so far, and its commands."""

    def __init__(
        self, http: aiohttp.ClientSession, table: Table, seat: int, *, outcomes: bool = False
    ) -> None:
        self.version = -1
        # The seat's command outcomes in order, kept only if asked (a flood waits for them).
        self.outcomes: asyncio.Queue[CommandOutcome] | None = asyncio.Queue() if outcomes else None
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
                    if self.outcomes is not None and data.startswith(OUTCOME_FRAME_HEAD):
                        self.outcomes.put_nowait(OUTCOME.decode(data).outcome)
                    continue  # a command's outcome: the version it made shows on the feed
                async with self._changed:
                    self.version = max(self.version, int(found.group(1)))
                    self._changed.notify_all()
                self._opened.set()

    async def send(self, body: bytes, *, decided: bool = False) -> None:
        """Send a command: `body` is a submission (`{"command_id", "command"}`) as POSTed;
        `decided`: its outcome frame comes once it is decided, not once it is queued."""
        assert self._socket is not None, "send after opened()"
        head = (
            COMMAND_FRAME_HEAD + b'"wait":%d,' % DECIDED_WAIT_S if decided else COMMAND_FRAME_HEAD
        )
        await self._socket.send_str((head + body[1:]).decode())

    async def outcome(self) -> CommandOutcome:
        """The outcome of the seat's oldest command not yet looked at (with `outcomes`)."""
        assert self.outcomes is not None, "a socket opened with outcomes=True"
        return await self.outcomes.get()

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


async def socket_flood(
    http: aiohttp.ClientSession,
    tables: list[Table],
    sequences: list[list[bytes]],
    on_start: Callable[[], object] | None = None,
) -> float:
    """`load.flood` over the seats' WebSockets: each table sends its next command once the
    last was accepted (its outcome frame, `queued`: the inbox orders them), its last with a
    wait for its decision; seconds taken until every last command was applied. The sockets
    are open (each seat's first view shown) before the clock starts (and `on_start` is called)."""
    sockets = [[SeatSocket(http, t, seat, outcomes=True) for seat in range(2)] for t in tables]
    try:
        await asyncio.gather(*(s.opened() for pair in sockets for s in pair))
        if on_start is not None:
            on_start()
        started = time.perf_counter()

        async def play(table: Table, sequence: list[bytes], pair: list[SeatSocket]) -> None:
            for n, body in enumerate(sequence):
                mover = pair[table.seat_of(table.sent)]
                last = n == len(sequence) - 1
                await mover.send(body, decided=last)
                table.sent += 1
                while (outcome := await mover.outcome()).status == "queued" and last:
                    await mover.send(body, decided=True)  # its wait ran out: ask again
                if outcome.status == "refused":
                    raise RuntimeError(f"command {outcome.command_id} was {outcome}")

        await asyncio.gather(
            *(play(t, s, p) for t, s, p in zip(tables, sequences, sockets, strict=True))
        )
        return time.perf_counter() - started
    finally:
        await asyncio.gather(*(s.close() for pair in sockets for s in pair))
