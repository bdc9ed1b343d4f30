"""A player's notifications: pages of their feed, and a live stream of it across all games.

The feed is written by the notification projector in the workers
(service.core.notifying.projector); this side only reads it, and wakes on the player's
channel when it grows. Cursors are the feed's entry ids (`<ms>-<n>`), "0" before the first.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
from collections.abc import AsyncGenerator

from contracts.notifications import FeedEntry, NotificationPage
from service.core.ports.notifications import NotificationFeed, PlayerStreamTickets, Presence
from service.core.ports.notifier import Notifier
from service.facade.checks import MAX_TOKEN_LENGTH, redis_guarded
from service.facade.token_sessions import TokenSession, TokenSessions
from service.shared.errors import InvalidInput, RateLimited, Unauthorized
from service.shared.settings import Settings

CURSOR = re.compile(r"^(0|\d{1,20}-\d{1,20})$")
MAX_NOTIFICATIONS_PAGE = 200


def checked_cursor(cursor: str, name: str = "after") -> str:
    """A feed cursor as given, or InvalidInput naming what is wrong with it."""
    if CURSOR.fullmatch(cursor) is None:
        raise InvalidInput(
            "notifications.bad_cursor",
            f"{name} must be a cursor this feed gave (`<ms>-<n>`), or 0 for the oldest",
            status=400,
        )
    return cursor


class NotificationSide:
    """Reads of players' notification feeds."""

    def __init__(
        self,
        settings: Settings,
        feed: NotificationFeed,
        notifier: Notifier,
        tickets: PlayerStreamTickets,
        presence: Presence,
        sessions: TokenSessions,
    ) -> None:
        self.sessions = sessions  # a ticket minted with a token since rotated is refused
        self.presence = presence  # open streams quiet "your turn" webhooks
        self.settings = settings
        self.feed = feed
        self.notifier = notifier
        self.tickets = tickets
        self._streams: dict[str, int] = {}

    @redis_guarded
    async def page(self, player_id: str, after: str, limit: int) -> NotificationPage:
        """Up to `limit` of the player's notifications after `after`, oldest first."""
        checked_cursor(after)
        if not 1 <= limit <= MAX_NOTIFICATIONS_PAGE:
            raise InvalidInput(
                "notifications.bad_limit", f"limit is 1 to {MAX_NOTIFICATIONS_PAGE}", status=400
            )
        entries = await self.feed.page(player_id, after, limit)
        return NotificationPage(
            notifications=entries, next=entries[-1].cursor if entries else after
        )

    @redis_guarded
    async def latest(self, player_id: str) -> str:
        """The cursor of the player's newest notification ("0" for none)."""
        return await self.feed.latest_cursor(player_id)

    @redis_guarded
    async def stream_ticket(self, session: TokenSession) -> str:
        """A single-use ticket opening the player's notification stream, bound to the token
        (`session`) it is minted with."""
        ttl_s = self.settings.stream_ticket_ttl_s
        return await self.tickets.issue(session.player_id, ttl_s, session.digest)

    @redis_guarded
    async def redeem_ticket(self, ticket: str) -> tuple[str, TokenSession | None]:
        """The player a notification stream ticket was issued to and the session it is bound
        to (None for a ticket stored before tickets kept it), keeping the ticket to reopen the
        stream for `stream_ticket_resume_s`; refused once the token it was minted with has
        changed."""
        found = None
        if 0 < len(ticket) <= MAX_TOKEN_LENGTH:
            found = await self.tickets.redeem(ticket, self.settings.stream_ticket_resume_s)
        if found is None:
            raise Unauthorized(
                "ticket.invalid",
                "this stream ticket is unknown or expired: ask for a new one "
                "(POST /v1/players/me/notifications/stream-tickets with the player token)",
            )
        player_id, digest = found
        session = None if digest is None else TokenSession(player_id, digest)
        if session is not None and not await self.sessions.stands(session):
            raise Unauthorized(
                "ticket.invalid",
                "the player token this stream ticket was issued with was rotated or revoked: "
                "ask for a new one with the current token",
            )
        return player_id, session

    @redis_guarded
    async def keep_ticket(self, ticket: str) -> None:
        """Renew the resume window of a ticket whose stream is still open."""
        await self.tickets.keep(ticket, self.settings.stream_ticket_resume_s)

    def streams_open(self, player_id: str) -> int:
        """How many notification streams of the player this process serves."""
        return self._streams.get(player_id, 0)

    async def follow(self, player_id: str, after: str) -> AsyncGenerator[list[FeedEntry], None]:
        """The player's notifications after `after` as they arrive, a batch at a time (an
        empty batch first, once subscribed). RateLimited past `sse_per_game` streams."""
        if self._streams.get(player_id, 0) >= self.settings.sse_per_game:
            raise RateLimited(
                "stream.too_many",
                f"at most {self.settings.sse_per_game} notification streams per player",
                retry_after=5.0,
            )
        self._streams[player_id] = self._streams.get(player_id, 0) + 1
        stream_id = secrets.token_hex(8)
        ttl_ms = int(self.settings.sse_heartbeat_s * 2000) + 1000
        try:
            channel = self.feed.channel(player_id)
            async with self.notifier.listen_channel(channel) as wakes:
                await redis_guarded(self.presence.renew)(player_id, stream_id, ttl_ms)
                yield []
                while True:
                    while True:  # everything after the cursor, a page at a time
                        entries = await redis_guarded(self.feed.page)(player_id, after, 100)
                        if not entries:
                            break
                        after = entries[-1].cursor
                        yield entries
                    # Wake on news, or renew the stream's presence before it lapses.
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(ttl_ms / 2000):
                            await wakes.get()
                    await redis_guarded(self.presence.renew)(player_id, stream_id, ttl_ms)
        finally:
            with contextlib.suppress(Exception):
                await self.presence.leave(player_id, stream_id)
            self._streams[player_id] -= 1
            if not self._streams[player_id]:
                del self._streams[player_id]
