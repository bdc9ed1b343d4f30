"""Connections that end with the token that opened them.

A WebSocket or a server-sent event stream opened with a player's token (directly, or through a
stream ticket minted with it) is bound to that token: when the player rotates or revokes it,
every such connection ends, in every API process. The token's change is announced on the
player's channel (`Players.replace_token`); each open connection listens to it through the
process's shared notifier and then checks whether its token still opens the player's seats.
Tickets carry the hash of the token they were minted with and are refused once it changed.

A guest's seat token is never revoked: its connections bind to nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

import structlog

from service.core.ports.failures import is_outage
from service.core.ports.notifier import Notifier, Update
from service.core.ports.players import Players
from service.facade.checks import redis_guarded

_RETRY_CHECK_S = 0.5  # after Redis failed a check: look again this soon

log = structlog.get_logger("skald.sessions")


@dataclass(frozen=True)
class TokenSession:
    """What a connection was opened with: a player's token, by its hash."""

    player_id: str
    digest: bytes

    def pack(self) -> str:
        """As a stream ticket stores it."""
        return f"{self.player_id}\t{self.digest.hex()}"

    @classmethod
    def unpack(cls, packed: str) -> TokenSession | None:
        """From what `pack` gave; None for anything else (a ticket stored before)."""
        player_id, _, digest = packed.partition("\t")
        try:
            return cls(player_id, bytes.fromhex(digest)) if player_id and digest else None
        except ValueError:
            return None


class TokenSessions:
    """Whether a session's token still stands, and a watch that ends with it."""

    def __init__(self, players: Players, notifier: Notifier) -> None:
        self.players = players
        self.notifier = notifier

    async def stands(self, session: TokenSession) -> bool:
        """Whether the session's token still opens its player's seats."""
        return await self.players.by_token(session.digest) == session.player_id

    @contextlib.asynccontextmanager
    async def watch(self, session: TokenSession | None) -> AsyncIterator[asyncio.Event]:
        """An event set once the session's token no longer stands (never for None), for the
        duration of the block. Unavailable when Redis cannot be subscribed to."""
        ended = asyncio.Event()
        if session is None:
            yield ended
            return
        channel = self.players.token_channel(session.player_id)
        async with contextlib.AsyncExitStack() as stack:
            news = await redis_guarded(stack.enter_async_context)(
                self.notifier.listen_channel(channel)
            )
            follow = asyncio.create_task(self._follow(session, news, ended))
            try:
                # A change announced before the subscription was heard by nobody here.
                if not await redis_guarded(self.stands)(session):
                    ended.set()
                yield ended
            finally:
                follow.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await follow

    async def _follow(
        self, session: TokenSession, news: asyncio.Queue[Update], ended: asyncio.Event
    ) -> None:
        # Any message on the channel (or the notifier's "look again" after a lost connection)
        # means: check the token. Redis failing the check is no verdict: check again shortly.
        while True:
            await news.get()
            while True:
                try:
                    standing = await self.stands(session)
                except Exception as exc:
                    if not is_outage(exc):
                        raise
                    log.warning("token_check_failed", error=repr(exc))
                    await asyncio.sleep(_RETRY_CHECK_S)
                    continue
                break
            if not standing:
                ended.set()
                return
