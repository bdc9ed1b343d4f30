"""Server-sent events: every version of a game, in order, as the seat may see it.

Each message has `id: <version>` and one of three `event:` names (contracts.live): `event` (an
EventRecord, filtered as GET /events filters it), `view` (the whole ViewEnvelope: on connect,
on resume, and every time with `?view=whole`), `patch` (an RFC 6902 JSON Patch to the last
view sent). `service.facade.live` decides what to send; this module carries it over SSE.

Resuming: a reconnect with `Last-Event-ID` (or `?last_event_id=`, for a client opening a new
EventSource) gets the events after that version, then the current view. A browser's native
EventSource cannot send an Authorization header: it opens a seat's stream with a ticket (`POST
.../stream-tickets` with the seat token, then `?ticket=`), which goes on reopening that stream
when the EventSource reconnects by itself, for `stream_ticket_resume_s` after the stream was
last open; the seat token never travels in a URL. Comments every `sse_heartbeat_s` keep idle
connections open through proxies; `StreamsClosing` ends every open stream when the server shuts
down (SIGINT, SIGTERM).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from functools import partial
from typing import Annotated, Any, Literal, TypeVar

from litestar import Request, Response, get, post
from litestar.background_tasks import BackgroundTask
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from contracts.live import StreamTicket
from service.core.ports.notifier import Update
from service.facade.live import LiveFeed, LiveMessage
from service.facade.skald import Skald
from service.shared.errors import InvalidInput, ServiceError, Unavailable

from ..auth import required_seat_session, seat_session
from ..docs import OPTIONAL_SEAT_TOKEN, SEAT_TOKEN, problems
from ..metrics import api_metrics
from ..negotiation import OFFERS_KEY, reply

TAGS = ["reads"]
EVENT_STREAM = "text/event-stream"
# How soon a client reconnects after a dropped stream (the SSE `retry` field, in ms).
RECONNECT_MS = 2000
STREAMS_CLOSING_STATE_KEY = "streams_closing"
SKIP_COMPRESSION = "skip_compression"  # route opt: the compression middleware leaves it alone
_CLOSE = None  # put in a stream's queue: end the stream
T = TypeVar("T")


class StreamsClosing:
    """The open streams of one app, ended together when the server shuts down. Each stream is
    followed by what ends it: a call putting `_CLOSE` in its queue, or cancelling its task."""

    def __init__(self) -> None:
        self.closed = False
        self._ends: set[Callable[[], object]] = set()

    def add(self, end: Callable[[], object]) -> None:
        """Follow a stream by what ends it (called at once if the server is already closing)."""
        self._ends.add(end)
        if self.closed:
            end()

    def discard(self, end: Callable[[], object]) -> None:
        """Forget a stream that ended."""
        self._ends.discard(end)

    def close(self) -> None:
        """End every open stream, and every stream opened from now on."""
        self.closed = True
        for end in list(self._ends):
            end()


async def _pump(items: AsyncIterator[T], queue: asyncio.Queue[T | None]) -> None:
    # Runs as its own task so the stream can wait on the queue with a timeout: cancelling a
    # queue read is harmless, cancelling the pub/sub iterator mid-read would close it. When the
    # items fail (Redis lost while rechecking) the stream ends: the client resumes losslessly.
    try:
        async for item in items:
            await queue.put(item)
    finally:
        queue.put_nowait(_CLOSE)


async def _close_when(ended: asyncio.Event, queue: asyncio.Queue[T | None]) -> None:
    await ended.wait()
    queue.put_nowait(_CLOSE)


async def followed(
    items: AsyncIterator[T],
    heartbeat_s: float,
    closing: StreamsClosing,
    ended: asyncio.Event | None = None,
) -> AsyncGenerator[T | None, None]:
    """What an event stream sends, in order: each of `items` as it comes, and None after each
    `heartbeat_s` without one (time for a keep-alive comment). Ends when the items end, the
    server shuts down (`closing`) or `ended` is set (the token that opened the stream was
    rotated or revoked). Close it (`contextlib.aclosing`) to stop its pump at once."""
    queue: asyncio.Queue[T | None] = asyncio.Queue()
    pump = asyncio.create_task(_pump(items, queue))
    stop = None if ended is None else asyncio.create_task(_close_when(ended, queue))
    end = partial(queue.put_nowait, _CLOSE)
    closing.add(end)
    try:
        while True:
            try:
                # asyncio.timeout, not wait_for: no task created per message. A queue read
                # cut short by the timeout loses nothing (the item stays queued).
                async with asyncio.timeout(heartbeat_s):
                    item = await queue.get()
            except TimeoutError:
                yield None
                continue
            if item is _CLOSE:
                return
            yield item
    finally:
        closing.discard(end)
        if stop is not None:
            stop.cancel()
        pump.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pump


TICKET_DESCRIPTION = (
    "A stream ticket (POST .../stream-tickets), for a browser's EventSource, which cannot send "
    "headers. Once it opened this stream it reopens it (the EventSource reconnecting with "
    "Last-Event-ID by itself) until `stream_ticket_resume_s` after the stream was last open; "
    "it opens nothing else."
)


async def keep_ticket(keep: Callable[[str], Awaitable[None]], ticket: str) -> None:
    """Renew a stream ticket's resume window; a Redis outage only shortens it."""
    with contextlib.suppress(ServiceError):
        await keep(ticket)


def sse_message(message: LiveMessage) -> ServerSentEventMessage:
    """A feed message as an SSE message (id: its version)."""
    return ServerSentEventMessage(
        data=message.data.decode(), event=message.kind, id=str(message.version)
    )


async def live_messages(
    feed: LiveFeed,
    updates: AsyncIterator[Update],
    heartbeat_s: float,
    closing: StreamsClosing,
    ended: asyncio.Event | None = None,
) -> AsyncGenerator[ServerSentEventMessage, None]:
    """The feed's messages as updates come, with heartbeat comments while idle, until the
    updates end, the server closes or `ended` is set."""
    following = followed(updates, heartbeat_s, closing, ended)
    async with contextlib.aclosing(following) as followed_updates:
        async for update in followed_updates:
            if update is None:
                yield ServerSentEventMessage(comment="keep-alive")
                continue
            for message in await feed.catch_up(update):
                yield sse_message(message)


def resume_point(header: str | None, query: int | None) -> int | None:
    """The version a client resumes after, from Last-Event-ID or `last_event_id`; None for a
    first connection (which starts with the current view)."""
    if header is None or not header.strip():
        return query
    if not header.strip().isdigit():
        raise InvalidInput(
            "stream.bad_last_event_id",
            "Last-Event-ID must be a version this stream sent (a whole number, 0 or more)",
            status=400,
        )
    return int(header.strip())


@get(
    "/games/{game_id:str}/stream",
    operation_id="streamViews",
    summary="Server-sent events: every event and view change as the game moves on",
    description="A `text/event-stream`; every message's id is the game's version. `event` "
    "messages carry the events the caller may see (EventRecord, as GET /events); `view` the "
    "whole ViewEnvelope (first, after a resume, and always with `view=whole`); `patch` an RFC "
    "6902 JSON Patch to the last view sent, starting with a test of `/version`. A reconnect "
    "with `Last-Event-ID` (or `last_event_id`) gets the events after that version, then the "
    "current view. A seat token gives that seat's stream, none the public one; a browser's "
    "EventSource, which cannot send headers, uses `ticket` (POST .../stream-tickets). "
    "Comments keep idle connections alive.",
    tags=TAGS,
    security=OPTIONAL_SEAT_TOKEN,
    responses=problems(400, 401, 404, 429, 503),
    media_type=EVENT_STREAM,
    opt={OFFERS_KEY: (EVENT_STREAM,), SKIP_COMPRESSION: True},
)
async def stream_game(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    game_id: FromPath[str],
    ticket: Annotated[
        str | None,
        QueryParameter(description=TICKET_DESCRIPTION),
    ] = None,
    view: Annotated[
        Literal["patch", "whole"],
        QueryParameter(description="`whole`: every view whole, never a patch."),
    ] = "patch",
    last_event_id: Annotated[
        int | None,
        QueryParameter(ge=0, description="Resume after this version (as Last-Event-ID)."),
    ] = None,
    last_event_header: Annotated[
        str | None,
        HeaderParameter(name="last-event-id", description="Resume after this version."),
    ] = None,
) -> ServerSentEvent:
    """Open the caller's stream of the game."""
    closing: StreamsClosing = request.app.state[STREAMS_CLOSING_STATE_KEY]
    if closing.closed:
        raise Unavailable("server.stopping", "the server is shutting down", retry_after=1.0)
    after = resume_point(last_event_header, last_event_id)
    seat: int | None
    if ticket is not None:
        seat, session = await skald.open_seat_ticket(game_id, ticket, resumable=True)
    else:
        seat, session = await seat_session(skald, request, game_id)
    updates = skald.reads.updates(game_id)
    # Take the first version before answering: an unknown game, too many streams or Redis
    # down are then a problem response, not a stream that dies at once.
    first = await anext(updates)
    if after is None:  # a first connection: the current view, then every version after it
        after = first.version
    if after > first.version:
        await updates.aclose()
        raise InvalidInput(
            "stream.bad_last_event_id",
            f"Last-Event-ID {after} is past the game's version {first.version}",
            status=400,
        )
    feed = LiveFeed(skald.reads, game_id, seat, after=after, patches=view == "patch")
    opening = await feed.catch_up()
    # Opened with a player's token, the stream ends when that token is rotated or revoked.
    watching = contextlib.AsyncExitStack()
    try:
        ended = await watching.enter_async_context(skald.sessions.watch(session))
    except BaseException:
        await updates.aclose()
        raise
    metrics = api_metrics(request)

    async def messages() -> AsyncGenerator[ServerSentEventMessage, None]:
        metrics.streams_open.inc()
        try:
            for message in opening:
                yield sse_message(message)
            heartbeat = skald.settings.sse_heartbeat_s
            # aclosing: the live messages stop their pump (which iterates `updates`) before
            # `updates` is closed below, however this generator ends.
            live = live_messages(feed, updates, heartbeat, closing, ended)
            async with contextlib.aclosing(live):
                async for live_message in live:
                    if ticket is not None and live_message.comment is not None:
                        await keep_ticket(skald.keep_stream_ticket, ticket)
                    yield live_message
        finally:
            metrics.streams_open.dec()
            if ticket is not None:  # the resume window starts when the stream ends
                await keep_ticket(skald.keep_stream_ticket, ticket)
            await watching.aclose()
            await updates.aclose()

    return sse_response(messages(), watching.aclose, updates.aclose)


def sse_response(
    messages: AsyncGenerator[ServerSentEventMessage, None],
    *releases: Callable[[], Awaitable[object]],
) -> ServerSentEvent:
    """An event stream of `messages`, whose own cleanup runs `releases` (each may run twice);
    run again once the response is over, however it ended. A client gone before the first
    message leaves `messages` never started, so its cleanup never runs: what it held (the
    game's subscription, a place in its stream limit, the token watch) was otherwise left to
    the garbage collector, which asyncio logged as an error."""

    async def end() -> None:
        await messages.aclose()
        for release in releases:
            await release()

    return ServerSentEvent(messages, retry_duration=RECONNECT_MS, background=BackgroundTask(end))


@post(
    "/games/{game_id:str}/stream-tickets",
    operation_id="createStreamTicket",
    summary="A single-use ticket to open your stream from a URL",
    description="For clients that cannot send an Authorization header on a stream (a "
    "browser's EventSource): the ticket opens this seat's stream once, as "
    "`GET .../stream?ticket=<ticket>`, within `expires_in` seconds. Only its hash is stored.",
    tags=TAGS,
    status_code=201,
    security=SEAT_TOKEN,
    responses=problems(400, 401, 404, 503),
)
async def create_stream_ticket(
    request: Request[Any, Any, Any], skald: NamedDependency[Skald], game_id: FromPath[str]
) -> Response[StreamTicket]:
    """Issue a stream ticket for the caller's seat."""
    seat, session = await required_seat_session(skald, request, game_id)
    ticket = await skald.stream_ticket(game_id, seat, session)
    granted = StreamTicket(ticket=ticket, expires_in=skald.settings.stream_ticket_ttl_s)
    return reply(request, granted, 201, {"cache-control": "no-store"})
