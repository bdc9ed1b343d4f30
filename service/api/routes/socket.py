"""A seat's WebSocket: its commands in, its outcomes and live updates out, on one connection.

The frames are `service.api.socket_channel`'s. The hello authenticates (the seat token in the
first frame, or a stream ticket: never a token in the URL) and chooses where the feed starts,
as the server-sent event stream's `Last-Event-ID`; the feed then sends exactly what that stream
sends for the seat. Commands go through the same facade call as POST .../commands, under the
same checks (contract, size and depth, rate per seat). The connection ends with the server's
shutdown as the streams do.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import secrets
from collections.abc import AsyncIterator
from typing import Any

from litestar import WebSocket, websocket
from litestar.di import NamedDependency
from litestar.exceptions import WebSocketDisconnect
from litestar.params import FromPath

from contracts.api import CommandOutcome
from service.adapters.redis_outage import is_outage
from service.core.ports.notifier import Update
from service.facade.holder import FacadeHolder
from service.facade.live import LiveFeed
from service.facade.skald import Skald
from service.facade.token_sessions import TokenSession
from service.shared.errors import InvalidInput, ServiceError, Unauthorized, Unavailable

from ..limits import bounded_wait
from ..metrics import ApiMetrics
from ..negotiation import MAX_BODY_DEPTH_STATE_KEY
from ..problems import REDIS_UNAVAILABLE, UNAVAILABLE_RETRY_S
from ..socket_channel import (
    CLOSE_GOING_AWAY,
    CLOSE_POLICY,
    HELLO_EXPECTED,
    Hello,
    SocketCommand,
    close_code,
    live_frame,
    outcome_frame,
    parse_frame,
    problem_frame,
    validate_hello,
)
from .stream import STREAMS_CLOSING_STATE_KEY, StreamsClosing

TOKEN_ENDED = "token.revoked"


def _token_ended() -> ServiceError:
    return Unauthorized(
        TOKEN_ENDED,
        "the player token this connection was opened with was rotated or revoked: "
        "open a new one with the current token",
    )


def _metrics(socket: WebSocket[Any, Any, Any]) -> ApiMetrics:
    metrics: ApiMetrics = socket.app.state["metrics"]
    return metrics


class _Channel:
    """One open connection: its seat, its frames' limits, and its sends (one at a time)."""

    def __init__(self, socket: WebSocket[Any, Any, Any], skald: Skald, game_id: str) -> None:
        self.socket = socket
        self.skald = skald
        self.game_id = game_id
        self.max_bytes = skald.settings.max_body_bytes
        self.max_depth: int = socket.app.state[MAX_BODY_DEPTH_STATE_KEY]
        self._ids = (f"ws-{secrets.token_hex(6)}-{n}" for n in itertools.count())
        self._waits: set[asyncio.Task[None]] = set()
        # Held while a command is submitted until its answer is sent: the feed sends a version
        # only after the outcome of a command the seat sent before it (a submit may wait for a
        # runner job to be queued while a running runner already applied the command).
        self.answering = asyncio.Lock()

    def request_id(self) -> str:
        """A fresh id for what one frame asks (logged with the command, as X-Request-ID is)."""
        return next(self._ids)

    async def send(self, frame: bytes) -> None:
        """One frame, as text (every frame is JSON)."""
        await self.socket.send_data(frame.decode(), mode="text")

    async def receive(self) -> Hello | SocketCommand | None:
        """The next client frame; None once the client has gone."""
        message: dict[str, Any] = dict(await self.socket.receive())
        if message["type"] == "websocket.disconnect":
            return None
        data: str | bytes = message.get("text") or message.get("bytes") or b""
        return parse_frame(data, self.max_bytes, self.max_depth)

    async def command(self, frame: SocketCommand, seat: int) -> None:
        """Submit a command; answer with its outcome (now, or once decided with `wait`)."""
        async with self.answering:
            try:
                wait = bounded_wait(frame.wait, self.skald.settings.max_wait_s)
                commands = self.skald.commands
                outcome = await commands.submit(
                    self.game_id,
                    seat,
                    frame.command_id,
                    frame.command,
                    self.request_id(),
                    expected_version=frame.expected_version,
                )
            except ServiceError as error:
                await self.send(problem_frame(error, self.request_id(), frame.command_id))
                return
            _metrics(self.socket).commands.labels(outcome.status).inc()
            if outcome.status == "queued" and wait > 0:
                task = asyncio.create_task(self._outcome_later(frame.command_id, seat, wait))
                self._waits.add(task)
                task.add_done_callback(self._waits.discard)
                return
            await self.send(outcome_frame(outcome))

    async def _outcome_later(self, command_id: str, seat: int, wait: float) -> None:
        try:
            outcome: CommandOutcome = await self.skald.commands.wait_outcome(
                self.game_id, command_id, wait, seat=seat
            )
        except ServiceError as error:
            await self.send(problem_frame(error, self.request_id(), command_id))
            return
        await self.send(outcome_frame(outcome))

    async def close(self) -> None:
        """Stop the outcomes still awaited."""
        for task in list(self._waits):
            task.cancel()
        await asyncio.gather(*self._waits, return_exceptions=True)


def _as_problem(exc: Exception) -> ServiceError:
    """A failure as the problem HTTP answers it: its own, or a Redis outage's 503 (any other
    exception is a bug, raised again)."""
    if isinstance(exc, ServiceError):
        return exc
    if is_outage(exc):
        return Unavailable(
            REDIS_UNAVAILABLE,
            "the game store is unreachable; retry shortly",
            retry_after=UNAVAILABLE_RETRY_S,
        )
    raise exc


async def _refuse(socket: WebSocket[Any, Any, Any], error: ServiceError) -> None:
    """Send the problem, then close: 1013 where HTTP answers 503, 1008 otherwise."""
    request_id = f"ws-{secrets.token_hex(6)}-0"
    await socket.send_data(problem_frame(error, request_id).decode(), mode="text")
    await socket.close(close_code(error), error.code)


async def _hello(channel: _Channel) -> tuple[int, Hello, TokenSession | None] | None:
    """The seat, the hello and the token session of a connection; None (closed, a problem
    sent) if refused."""
    try:
        async with asyncio.timeout(channel.skald.settings.header_timeout_s):
            frame = await channel.receive()
        if frame is None:
            return None
        if not isinstance(frame, Hello):
            raise InvalidInput(HELLO_EXPECTED, "the first frame is a `hello`", status=400)
        validate_hello(frame)
        skald, game_id = channel.skald, channel.game_id
        if frame.ticket is not None:
            seat, session = await skald.open_seat_ticket(game_id, frame.ticket)
        else:
            seat, session = await skald.open_seat(game_id, frame.token or "")
    except TimeoutError:
        await channel.socket.close(CLOSE_POLICY, "no hello in time")
        return None
    except Exception as exc:
        await _refuse(channel.socket, _as_problem(exc))
        return None
    return seat, frame, session


async def _feed(
    channel: _Channel, feed: LiveFeed, updates: AsyncIterator[Update], opening: Any
) -> None:
    """Send the opening messages, then every version as updates come. Reads the updates
    itself (no task and queue between: one task wake-up fewer per update); ended by being
    cancelled (the client gone, the server closing)."""
    for message in opening:
        await channel.send(live_frame(message))
    try:
        async for update in updates:
            messages = await feed.catch_up(update)
            async with channel.answering:  # after the outcome of a command being answered
                for message in messages:
                    await channel.send(live_frame(message))
    except ServiceError:  # Redis lost while rechecking: the connection ends, the client resumes
        return


async def _commands(channel: _Channel, seat: int) -> None:
    """Read command frames until the client goes; a bad frame is answered, never fatal."""
    while True:
        try:
            frame = await channel.receive()
        except ServiceError as error:
            await channel.send(problem_frame(error, channel.request_id()))
            continue
        if frame is None:
            return
        if isinstance(frame, Hello):
            again = InvalidInput(HELLO_EXPECTED, "a connection says hello once", status=400)
            await channel.send(problem_frame(again, channel.request_id()))
            continue
        await channel.command(frame, seat)


@websocket("/games/{game_id:str}/socket", include_in_schema=False)
async def game_socket(
    socket: WebSocket[Any, Any, Any],
    facade: NamedDependency[FacadeHolder],
    game_id: FromPath[str],
) -> None:
    """A seat's commands and live updates on one WebSocket (docs/clients.md)."""
    closing: StreamsClosing = socket.app.state[STREAMS_CLOSING_STATE_KEY]
    await socket.accept()
    try:  # connected here, not as a dependency: a failure is then the problem HTTP answers
        skald = await facade.get()
    except Exception as exc:
        await _refuse(socket, _as_problem(exc))
        return
    channel = _Channel(socket, skald, game_id)
    if closing.closed:
        error = Unavailable("server.stopping", "the server is shutting down", retry_after=1.0)
        await channel.send(problem_frame(error, channel.request_id()))
        await socket.close(CLOSE_GOING_AWAY)
        return
    greeted = await _hello(channel)
    if greeted is None:
        return
    seat, hello, session = greeted
    close_code, reason = CLOSE_GOING_AWAY, ""
    try:
        # Opened with a player's token, the connection ends when that token is rotated or
        # revoked (in whichever API process that happens).
        async with skald.sessions.watch(session) as ended:
            if await _serve(channel, seat, hello, closing, ended):
                close_code, reason = CLOSE_POLICY, TOKEN_ENDED
    except WebSocketDisconnect:
        pass
    except ServiceError as error:  # the watch could not start (Redis down), or serving failed
        with contextlib.suppress(Exception):
            await channel.send(problem_frame(error, channel.request_id()))
    finally:
        await channel.close()
    with contextlib.suppress(Exception):  # already closed by the client: nothing to say
        await socket.close(close_code, reason)


async def _serve(
    channel: _Channel, seat: int, hello: Hello, closing: StreamsClosing, ended: asyncio.Event
) -> bool:
    """Serve the connection until the client goes, the server closes or `ended` is set;
    whether it ended for that (its token rotated or revoked: a problem frame says so)."""
    skald, game_id = channel.skald, channel.game_id
    try:
        updates = skald.reads.updates(game_id)
        first = await anext(updates)
    except ServiceError as error:  # the game's own problem, or a 503: closed as the hello's
        await _refuse(channel.socket, error)
        return False
    after = first.version if hello.after is None else hello.after
    if after > first.version:
        await updates.aclose()
        too_far = InvalidInput(
            "stream.bad_last_event_id",
            f"`after` {after} is past the game's version {first.version}",
            status=400,
        )
        await channel.send(problem_frame(too_far, channel.request_id()))
        return False
    feed = LiveFeed(
        skald.reads, game_id, seat, after=after, patches=hello.view == "patch", turns=True
    )
    feeding: asyncio.Task[None] | None = None
    metrics = _metrics(channel.socket)
    metrics.streams_open.inc()
    try:
        opening = await feed.catch_up()
        feeding = asyncio.create_task(_feed(channel, feed, updates, opening))
        closing.add(feeding.cancel)  # called at once if the server is closing already
        reading = asyncio.create_task(_commands(channel, seat))
        revoked = asyncio.create_task(ended.wait())
        tasks = (feeding, reading, revoked)
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            task.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        if ended.is_set():
            with contextlib.suppress(Exception):  # the client may be gone already
                await channel.send(problem_frame(_token_ended(), channel.request_id()))
            return True
        for result in results:
            if isinstance(result, Exception) and not isinstance(result, WebSocketDisconnect):
                raise result
        return False
    finally:
        metrics.streams_open.dec()
        if feeding is not None:
            closing.discard(feeding.cancel)
        await updates.aclose()
