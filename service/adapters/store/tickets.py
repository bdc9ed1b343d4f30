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

    async def redeem(self, ticket: str) -> tuple[str, int, tuple[str, bytes] | None] | None:
        """(game id, seat, bound) the ticket was issued for, consuming it; None if unknown or
        used. `bound` is None for a ticket minted with a seat token (or stored before)."""
        stored = await self.redis.getdel(ticket_key(self.prefix, ticket))
        if stored is None:
            return None
        text = stored.decode() if isinstance(stored, bytes) else stored
        game_id, seat, *rest = text.split("\t")
        bound = (rest[0], bytes.fromhex(rest[1])) if len(rest) == 2 else None
        return game_id, int(seat), bound
