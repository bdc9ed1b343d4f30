"""The HTTP load generator: seeded race games played over real HTTP by one asyncio client.

Each table (a two-seat race game with an unreachable finish line) gets a command sequence
recorded from a seeded random generator; every command in it is legal whatever the dice roll,
so a sequence can be sent without reading the game back. Throughput runs send each table's
sequence as fast as the replies come (one request in flight per table); latency runs pace
the commands and time each one until the other seat's server-sent event stream shows it.
"""

from __future__ import annotations

import asyncio
import math
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import aiohttp
import msgspec

from contracts.api import CommandOutcome, GameCreated, SeatJoined, SubmitCommand, Turn

RACE_CONFIG = {"players": 2, "target": 10**9}  # never finishes: every Move stays legal
SETUP_CONCURRENCY = 32
KEEPALIVE_S = 3.0  # below the server's (uvicorn's default is 5 s)
ENCODER = msgspec.json.Encoder()
T = TypeVar("T")
# The `id:` line of a server-sent event: the version the event shows.
EVENT_ID_LINE = re.compile(rb"^id: ?(\d+)\r?$", re.MULTILINE)


@dataclass
class Table:
    """A game, its seats' tokens, and the seat that moves first."""

    game_id: str
    tokens: list[str]
    first: int
    sent: int = 0

    def auth(self, seat: int) -> dict[str, str]:
        """Headers of a request by `seat`."""
        return {"authorization": f"Bearer {self.tokens[seat]}", "content-type": "application/json"}

    def seat_of(self, move: int) -> int:
        """Who sends the table's `move`-th command (seats alternate)."""
        return (self.first + move) % len(self.tokens)


def recorded_commands(seed: int, count: int) -> list[bytes]:
    """A table's command sequence: seeded Move commands, encoded once as submission bodies."""
    rng = random.Random(seed)
    return [
        ENCODER.encode(
            SubmitCommand(
                command_id=f"{seed}-{n}",
                command={"type": "Move", "steps": rng.randint(1, 3)},
            )
        )
        for n in range(count)
    ]


def new_client(url: str, connections: int) -> aiohttp.ClientSession:
    """The one client every run uses (same pool, same timeouts, so ratios compare).

    aiohttp rather than httpx: the client shares the machine with the service, and httpx's
    async client spent several times more CPU per request (it was the bottleneck of the echo
    baseline, profiled with pyinstrument).
    """
    # Idle connections are dropped before uvicorn's 5 s keep-alive closes them: reusing one the
    # server is closing fails with "Server disconnected" (tables that finish a flood early
    # wait idle while the slowest ones are applied).
    connector = aiohttp.TCPConnector(limit=connections, keepalive_timeout=KEEPALIVE_S)
    timeout = aiohttp.ClientTimeout(total=None, sock_read=60.0)
    return aiohttp.ClientSession(url, connector=connector, timeout=timeout)


async def open_tables(
    http: aiohttp.ClientSession, count: int, clock: dict[str, Any] | None = None
) -> list[Table]:
    """Create `count` race games with both seats taken (each with the turn timer `clock`)."""
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def one() -> Table:
        async with gate:
            body: dict[str, Any] = {"game": "race", "config": RACE_CONFIG}
            if clock is not None:
                body["clock"] = clock
            created = await _call(http, "POST", "/games", GameCreated, body)
            tokens = []
            for seat in range(2):
                path = f"/games/{created.game_id}/seats"
                joined = await _call(http, "POST", path, SeatJoined, {"seat": seat})
                tokens.append(joined.token)
            turn = await _call(http, "GET", f"/games/{created.game_id}/turn", Turn)
            return Table(created.game_id, tokens, turn.to_act[0])

    return list(await asyncio.gather(*(one() for _ in range(count))))


async def _call(
    http: aiohttp.ClientSession,
    method: str,
    path: str,
    result: type[T],
    body: Any = None,
    **options: Any,
) -> T:
    async with http.request(method, path, json=body, **options) as reply:
        content = await reply.read()
        if reply.status >= 300:
            raise RuntimeError(f"{method} {path}: {reply.status} {content[:300]!r}")
        return msgspec.json.decode(content, type=result)


async def post_command(
    http: aiohttp.ClientSession, table: Table, body: bytes, *, echo: bool = False
) -> None:
    """Send the table's next command (to the echo endpoint with `echo`)."""
    seat = table.seat_of(table.sent)
    prefix = "/bench/echo" if echo else ""
    path = f"{prefix}/games/{table.game_id}/commands"
    async with http.post(path, data=body, headers=table.auth(seat)) as reply:
        content = await reply.read()
        if reply.status != 202:
            raise RuntimeError(f"submit: {reply.status} {content[:300]!r}")
    table.sent += 1


async def flood(
    http: aiohttp.ClientSession, tables: list[Table], sequences: list[list[bytes]], *, echo: bool
) -> float:
    """Send every table's sequence (one request in flight per table); seconds taken until
    all were accepted and, unless `echo`, every last command was applied."""
    started = time.perf_counter()

    async def play(table: Table, sequence: list[bytes]) -> None:
        for body in sequence:
            await post_command(http, table, body, echo=echo)
        if not echo:
            await _applied(http, table, sequence[-1])

    await asyncio.gather(*(play(t, s) for t, s in zip(tables, sequences, strict=True)))
    return time.perf_counter() - started


async def _applied(http: aiohttp.ClientSession, table: Table, body: bytes) -> None:
    command_id = msgspec.json.decode(body, type=SubmitCommand).command_id
    seat = table.seat_of(table.sent - 1)
    path = f"/games/{table.game_id}/commands/{command_id}"
    while True:  # each wait is bounded by the server's max_wait_s
        options = {"params": {"wait": "30"}, "headers": table.auth(seat)}
        try:
            outcome = await _call(http, "GET", path, CommandOutcome, **options)
        except (aiohttp.SocketTimeoutError, aiohttp.ServerDisconnectedError):
            # The command was accepted and this only asks what became of it: ask again. A
            # stalled answer still counts in the run's time (seen once in a naive flood on a
            # machine at load 10, where one long poll went unanswered for 60 s).
            continue
        if outcome.status == "applied":
            return
        if outcome.status != "queued":
            raise RuntimeError(f"command {command_id} was {outcome}")


class SeatStream:
    """One seat's server-sent event stream: the highest version it has shown so far."""

    def __init__(self, http: aiohttp.ClientSession, table: Table, seat: int) -> None:
        self.version = -1
        self._changed = asyncio.Condition()
        self._opened = asyncio.Event()
        self._task = asyncio.create_task(self._read(http, table, seat))

    async def _read(self, http: aiohttp.ClientSession, table: Table, seat: int) -> None:
        path = f"/games/{table.game_id}/stream"
        headers = {"authorization": f"Bearer {table.tokens[seat]}"}
        timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
        async with http.get(path, headers=headers, timeout=timeout) as reply:
            # Whole chunks, searched for `id:` lines: a line-by-line read cost the load client,
            # which shares the machine with the service, more CPU than the server's own push.
            unfinished = b""
            async for chunk in reply.content.iter_any():
                lines, _, unfinished = (unfinished + chunk).rpartition(b"\n")
                versions = EVENT_ID_LINE.findall(lines)
                if versions:
                    async with self._changed:
                        self.version = max(self.version, int(versions[-1]))
                        self._changed.notify_all()
                    self._opened.set()

    async def opened(self) -> None:
        """Wait for the first view (the stream then reports every later version)."""
        await self._opened.wait()

    async def beyond(self, version: int) -> int:
        """Wait until the stream shows a version above `version`; return it."""
        async with self._changed:
            await self._changed.wait_for(lambda: self.version > version)
            return self.version

    async def close(self) -> None:
        """Stop reading."""
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)


@dataclass
class PacedRun:
    """What a paced run measured: offered and achieved rates, latencies in seconds."""

    offered_per_s: float
    achieved_per_s: float
    latencies: list[float] = field(default_factory=list)

    def percentile(self, share: float) -> float:
        """The latency below which `share` of the commands stayed, in milliseconds."""
        if not self.latencies:
            return 0.0
        ranked = sorted(self.latencies)  # nearest rank: a latency some command really had
        return ranked[max(0, math.ceil(share * len(ranked)) - 1)] * 1000


async def paced(
    http: aiohttp.ClientSession,
    tables: list[Table],
    sequences: list[list[bytes]],
    offered_per_s: float,
    duration_s: float,
    warmup_s: float = 0.0,
    on_measuring: Callable[[], None] | None = None,
    *,
    over_socket: bool = False,
) -> PacedRun:
    """Offer `offered_per_s` commands per second spread over the tables for `warmup_s`, then
    for `duration_s` timing each command from submit until the other seat's stream shows its
    outcome. The warm-up is not measured: the figures are those of the steady state, not of
    runners starting and workers loading the tables' games.

    An `offered_per_s` of 0 offers no pace: each table sends its next command as soon as the
    other seat's stream shows the last (the ceiling with the other seat notified).
    `on_measuring` is called when the measured window opens. With `over_socket` each seat
    holds one WebSocket (tests.bench.socket_load) for its commands and its updates, instead of
    an event stream and a POST per command."""
    from tests.bench.socket_load import SeatSocket  # it imports this module's Table

    channel = SeatSocket if over_socket else SeatStream
    streams: list[list[Any]] = [[channel(http, t, seat) for seat in range(2)] for t in tables]
    await asyncio.gather(*(s.opened() for pair in streams for s in pair))
    run = PacedRun(offered_per_s, 0.0)
    interval = len(tables) / offered_per_s if offered_per_s else 0.0  # each table's pace
    started = time.perf_counter()
    measured_from = started + warmup_s
    deadline = measured_from + duration_s
    rng = random.Random(7)

    async def open_window() -> None:
        await _sleep_until(measured_from)
        if on_measuring is not None:
            on_measuring()

    async def play(table: Table, sequence: list[bytes], pair: list[Any]) -> None:
        next_at = started + rng.random() * interval  # spread the tables' phases
        seen = max(stream.version for stream in pair)
        for body in sequence[table.sent :]:
            await _sleep_until(next_at)
            if time.perf_counter() >= deadline:
                return
            mover = table.seat_of(table.sent)
            other = pair[1 - mover]
            sent_at = time.perf_counter()
            if over_socket:
                await pair[mover].send(body)
                table.sent += 1
            else:
                await post_command(http, table, body)
            seen = await other.beyond(seen)
            if sent_at >= measured_from:
                run.latencies.append(time.perf_counter() - sent_at)
            next_at += interval

    try:
        await asyncio.gather(
            open_window(),
            *(play(t, s, p) for t, s, p in zip(tables, sequences, streams, strict=True)),
        )
    finally:
        await asyncio.gather(*(s.close() for pair in streams for s in pair))
    run.achieved_per_s = len(run.latencies) / (time.perf_counter() - measured_from)
    return run


async def _sleep_until(moment: float) -> None:
    delay = moment - time.perf_counter()
    if delay > 0:
        await asyncio.sleep(delay)  # pacing an open-loop load is what the clock is for
