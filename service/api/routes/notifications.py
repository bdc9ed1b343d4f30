"""A player's notifications over HTTP: pages of the feed (`after=`), and one server-sent
stream across all the player's games.

The stream's message ids are feed cursors: a reconnect with `Last-Event-ID` (or
`?last_event_id=`) gets every notification after it; a first connection starts at the newest
(the feed's pages hold what came before). A browser's EventSource opens it with a single-use
ticket (`POST .../stream-tickets` with the player token, then `?ticket=`). Comments every
`sse_heartbeat_s` keep it open; the server's shutdown ends it like every other stream.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator
from typing import Annotated, Any

from litestar import Request, Response, get, post
from litestar.di import NamedDependency
from litestar.params import HeaderParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from contracts.live import StreamTicket
from contracts.notifications import FeedEntry, NotificationPage
from service.core.ports.notifications import encode_notification
from service.facade.notification_side import CURSOR, NotificationSide, checked_cursor
from service.facade.skald import Skald
from service.facade.token_sessions import TokenSession
from service.shared.errors import Unavailable

from ..docs import problems
from ..metrics import api_metrics
from ..negotiation import OFFERS_KEY, reply
from .players import NO_STORE, acting_player, acting_session
from .stream import (
    EVENT_STREAM,
    SKIP_COMPRESSION,
    STREAMS_CLOSING_STATE_KEY,
    TICKET_DESCRIPTION,
    StreamsClosing,
    followed,
    keep_ticket,
    sse_response,
)

TAGS = ["players"]
CURSOR_PATTERN = CURSOR.pattern


def notification_side(skald: Skald) -> NotificationSide:
    """The facade's notification reads (always wired by the composition root)."""
    if skald.notifications is None:
        raise Unavailable("notifications.off", "notifications are not configured")
    return skald.notifications


@get(
    "/players/me/notifications",
    operation_id="listNotifications",
    summary="The player's notifications",
    description="Oldest first, after the cursor `after` (0: from the oldest kept); `next` is "
    "the `after` of the next page. Each carries the game id, the game (its registered name, "
    "such as `fjords`), the kind, the game's version, the player's seat, and only public "
    "facts beside (rank, deadline, rematch id).",
    tags=TAGS,
    responses=problems(400, 401, 503),
)
async def list_notifications(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    after: Annotated[
        str,
        QueryParameter(description="A cursor from a previous page", pattern=CURSOR_PATTERN),
    ] = "0",
    limit: Annotated[int, QueryParameter(ge=1, le=200)] = 50,
) -> Response[NotificationPage]:
    """A page of the player's notifications."""
    player_id = await acting_player(skald, request)
    page = await notification_side(skald).page(player_id, after, limit)
    return reply(request, page, 200, NO_STORE)


@post(
    "/players/me/notifications/stream-tickets",
    operation_id="createNotificationStreamTicket",
    summary="A single-use ticket to open your notification stream from a URL",
    description="For a browser's EventSource, which cannot send the player token: the ticket "
    "opens the stream once, as `GET /v1/players/me/notifications/stream?ticket=<ticket>`, "
    "within `expires_in` seconds. Only its hash is stored.",
    tags=TAGS,
    status_code=201,
    responses=problems(401, 503),
)
async def create_notification_ticket(
    request: Request[Any, Any, Any], skald: NamedDependency[Skald]
) -> Response[StreamTicket]:
    """Issue a notification stream ticket."""
    session = await acting_session(skald, request)
    ticket = await notification_side(skald).stream_ticket(session)
    granted = StreamTicket(ticket=ticket, expires_in=skald.settings.stream_ticket_ttl_s)
    return reply(request, granted, 201, NO_STORE)


def notification_message(entry: FeedEntry) -> ServerSentEventMessage:
    """A feed entry as an SSE message (id: its cursor)."""
    return ServerSentEventMessage(
        data=encode_notification(entry.notification).decode(),
        event="notification",
        id=entry.cursor,
    )


@get(
    "/players/me/notifications/stream",
    operation_id="streamNotifications",
    summary="Server-sent events: the player's notifications across all their games",
    description="A `text/event-stream` of `notification` messages (a Notification each), "
    "whose ids are feed cursors. A reconnect with `Last-Event-ID` (or `last_event_id`) gets "
    "every notification after it; a first connection starts with the next one. The player "
    "token opens it, or, for a browser's EventSource, `ticket` (POST .../stream-tickets). "
    "Comments keep idle connections alive.",
    tags=TAGS,
    responses=problems(400, 401, 429, 503),
    media_type=EVENT_STREAM,
    opt={OFFERS_KEY: (EVENT_STREAM,), SKIP_COMPRESSION: True},
)
async def stream_notifications(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    ticket: Annotated[
        str | None,
        QueryParameter(description=TICKET_DESCRIPTION),
    ] = None,
    last_event_id: Annotated[
        str | None,
        QueryParameter(
            description="Resume after this cursor (as Last-Event-ID).", pattern=CURSOR_PATTERN
        ),
    ] = None,
    last_event_header: Annotated[
        str | None,
        HeaderParameter(
            name="last-event-id", description="Resume after this cursor.", pattern=CURSOR_PATTERN
        ),
    ] = None,
) -> ServerSentEvent:
    """Open the player's notification stream."""
    closing: StreamsClosing = request.app.state[STREAMS_CLOSING_STATE_KEY]
    if closing.closed:
        raise Unavailable("server.stopping", "the server is shutting down", retry_after=1.0)
    side = notification_side(skald)
    resume = (last_event_header or "").strip() or last_event_id
    if resume is not None:
        checked_cursor(resume, "Last-Event-ID")
    session: TokenSession | None
    if ticket is not None:
        player_id, session = await side.redeem_ticket(ticket)
    else:
        session = await acting_session(skald, request)
        player_id = session.player_id
    after = resume if resume is not None else await side.latest(player_id)
    batches = side.follow(player_id, after)
    await anext(batches)  # subscribed (or a problem response: too many streams, Redis down)
    # The stream ends when the token that opened it is rotated or revoked.
    watching = contextlib.AsyncExitStack()
    try:
        ended = await watching.enter_async_context(skald.sessions.watch(session))
    except BaseException:
        await batches.aclose()
        raise
    metrics = api_metrics(request)
    heartbeat_s = skald.settings.sse_heartbeat_s

    async def messages() -> AsyncGenerator[ServerSentEventMessage, None]:
        metrics.streams_open.inc()
        try:
            following = followed(batches, heartbeat_s, closing, ended)
            async with contextlib.aclosing(following) as followed_batches:
                async for batch in followed_batches:
                    if batch is None:
                        if ticket is not None:
                            await keep_ticket(side.keep_ticket, ticket)
                        yield ServerSentEventMessage(comment="keep-alive")
                        continue
                    for entry in batch:
                        yield notification_message(entry)
        finally:
            metrics.streams_open.dec()
            if ticket is not None:  # the resume window starts when the stream ends
                await keep_ticket(side.keep_ticket, ticket)
            await watching.aclose()
            await batches.aclose()

    return sse_response(messages(), watching.aclose, batches.aclose)
