"""Stream tickets: short-lived, single-use stand-ins for a seat token in a stream URL.

Only the ticket's SHA-256 is stored, under a key that expires with the ticket; redeeming is
one GETDEL, so two requests racing with the same ticket cannot both open a stream.
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

    async def issue(self, game_id: str, seat: int, ttl_s: int) -> str:
        """A new ticket for `seat` of `game_id`, valid for `ttl_s` seconds and one use."""
        ticket = secrets.token_urlsafe(TICKET_BYTES)
        await self.redis.set(ticket_key(self.prefix, ticket), f"{game_id}\t{seat}", ex=ttl_s)
        return ticket

    async def redeem(self, ticket: str) -> tuple[str, int] | None:
        """(game id, seat) the ticket was issued for, consuming it; None if unknown or used."""
        stored = await self.redis.getdel(ticket_key(self.prefix, ticket))
        if stored is None:
            return None
        game_id, _, seat = (stored.decode() if isinstance(stored, bytes) else stored).partition(
            "\t"
        )
        return game_id, int(seat)
