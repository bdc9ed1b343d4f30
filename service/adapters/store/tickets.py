"""Stream tickets: short-lived stand-ins for a seat token in a stream URL.

Only the ticket's SHA-256 is stored, under a key that expires with the ticket. A socket's hello
redeems one with GETDEL (single use: two hellos racing with the same ticket cannot both act for
the seat). A server-sent event stream redeems it with GETEX instead, which keeps it for a resume
window: a browser's EventSource reconnects to the same URL by itself, so the ticket that opened
the stream reopens it, and the stream renews the window while it stays open (`keep`).
"""

from __future__ import annotations

import hashlib
import secrets

from redis.asyncio import Redis

TICKET_BYTES = 24


def ticket_key(prefix: str, ticket: str) -> str:
    """The key of a ticket: its hash, never the ticket itself."""
    return f"{prefix}stream-ticket:{hashlib.sha256(ticket.encode()).hexdigest()}"


class StreamTickets:
    """Issue and redeem stream tickets on Redis."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix

    async def issue(
        self, game_id: str, seat: int, ttl_s: int, bound: tuple[str, bytes] | None = None
    ) -> str:
        """A new ticket for `seat` of `game_id`, valid for `ttl_s` seconds and one use; `bound`
        (player id, token hash) names the player's token it was minted with, if any."""
        ticket = secrets.token_urlsafe(TICKET_BYTES)
        value = f"{game_id}\t{seat}"
        if bound is not None:
            value += f"\t{bound[0]}\t{bound[1].hex()}"
        await self.redis.set(ticket_key(self.prefix, ticket), value, ex=ttl_s)
        return ticket

    async def redeem(
        self, ticket: str, keep_s: int | None = None
    ) -> tuple[str, int, tuple[str, bytes] | None] | None:
        """(game id, seat, bound) the ticket was issued for, consuming it (with `keep_s`: kept
        for that many seconds more, to reopen the same stream); None if unknown or used.
        `bound` is None for a ticket minted with a seat token (or stored before)."""
        key = ticket_key(self.prefix, ticket)
        if keep_s is None:
            stored = await self.redis.getdel(key)
        else:
            stored = await self.redis.getex(key, ex=keep_s)
        if stored is None:
            return None
        text = stored.decode() if isinstance(stored, bytes) else stored
        game_id, seat, *rest = text.split("\t")
        bound = (rest[0], bytes.fromhex(rest[1])) if len(rest) == 2 else None
        return game_id, int(seat), bound

    async def keep(self, ticket: str, keep_s: int) -> None:
        """Keep a redeemed stream ticket `keep_s` seconds more (its stream is still open)."""
        await self.redis.expire(ticket_key(self.prefix, ticket), keep_s)
