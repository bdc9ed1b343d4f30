"""Server-sent events: the caller's view, pushed whenever the game moves on.

Each message is `event: view`, `id: <version>`, `data: <ViewEnvelope JSON>`: the same view
GET /games/{id}/view returns, so a client needs no second request. The facade's `updates()`
subscribes before it reads the current version, so no change falls between the first view
and the notifications; comments keep idle connections open through proxies.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from litestar import Request, get
from litestar.di import NamedDependency
from litestar.params import FromPath
from litestar.response import ServerSentEvent, ServerSentEventMessage

from service.adapters.notifications import Update
from service.facade.skald import Skald

from ..auth import seat_for_view
from ..docs import OPTIONAL_SEAT_TOKEN, problems
from ..metrics import api_metrics
from ..negotiation import OFFERS_KEY

TAGS = ["reads"]
EVENT_STREAM = "text/event-stream"
KEEPALIVE_S = 15.0
# How soon a client reconnects after a dropped stream (the SSE `retry` field, in ms).
RECONNECT_MS = 2000


async def _pump(updates: AsyncIterator[Update], queue: asyncio.Queue[Update]) -> None:
    # Runs as its own task so the stream can wait on the queue with a timeout: cancelling a
    # queue read is harmless, cancelling the pub/sub iterator mid-read would close it.
    async for update in updates:
        await queue.put(update)


async def view_messages(
    skald: Skald, game_id: str, seat: int | None, updates: AsyncIterator[Update]
) -> AsyncIterator[ServerSentEventMessage]:
    """The current view, then each newer one, with keep-alive comments while idle."""
    queue: asyncio.Queue[Update] = asyncio.Queue()
    pump = asyncio.create_task(_pump(updates, queue))
    sent = -1
    try:
        while True:
            try:
                # asyncio.timeout, not wait_for: no task created per message. A queue read
                # cut short by the timeout loses nothing (the item stays queued).
                async with asyncio.timeout(KEEPALIVE_S):
                    update = await queue.get()
            except TimeoutError:
                yield ServerSentEventMessage(comment="keep-alive")
                continue
            if update.version <= sent:
                continue
            carried = update.view_for(seat)  # the seat's own view, sent with the notification
            if carried is not None:
                version, body = update.version, carried
            else:
                version, body = await skald.reads.view(game_id, seat)
            if version > sent:
                sent = version
                yield ServerSentEventMessage(data=body.decode(), event="view", id=str(version))
    finally:
        pump.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pump


@get(
    "/games/{game_id:str}/stream",
    operation_id="streamViews",
    summary="Server-sent events: your view on every change",
    description="A `text/event-stream` of `view` events (id: the version; data: the same "
    "ViewEnvelope as GET /view), starting with the current view. A seat token gives that "
    "seat's view, none the public view. Comments keep idle connections alive.",
    tags=TAGS,
    security=OPTIONAL_SEAT_TOKEN,
    responses=problems(400, 401, 404, 429, 503),
    media_type=EVENT_STREAM,
    opt={OFFERS_KEY: (EVENT_STREAM,)},
)
async def stream_views(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    game_id: FromPath[str],
) -> ServerSentEvent:
    """Open a stream of the caller's view."""
    seat = await seat_for_view(skald, request, game_id, None)
    updates = skald.reads.updates(game_id)
    # Take the first version before answering: an unknown game, too many streams or Redis
    # down are then a problem response, not a stream that dies at once.
    first = await anext(updates)

    async def replay_first() -> AsyncIterator[Update]:
        yield first
        async for update in updates:
            yield update

    metrics = api_metrics(request)

    async def counted() -> AsyncIterator[ServerSentEventMessage]:
        metrics.streams_open.inc()
        try:
            async for message in view_messages(skald, game_id, seat, replay_first()):
                yield message
        finally:
            metrics.streams_open.dec()

    return ServerSentEvent(counted(), retry_duration=RECONNECT_MS)
