"""Limits per client address on what needs no credential: creating players, and creating
games without a player's token (a player's own games are limited per player instead).

A refused request is a 429 whose Retry-After is when the address's window ends. The address is
the HTTP connection's peer (the ASGI client); a proxy's X-Forwarded-For counts only from the
proxies `forwarded_allow_ips` names (the HTTP server then puts the client it names in the
ASGI scope).
"""

from __future__ import annotations

from typing import Literal

from service.core.ports.connections import AddressCounters
from service.facade.checks import redis_guarded
from service.shared.errors import RateLimited
from service.shared.settings import Settings

AddressAction = Literal["players", "games"]
UNKNOWN_ADDRESS = "unknown"  # a server that names no client (none of ours does)
MAX_ADDRESS_LENGTH = 64  # an IPv6 address with a zone is well under it
_CODES: dict[AddressAction, tuple[str, str]] = {
    "players": ("address.player_limit", "players created"),
    "games": ("address.game_limit", "games created without a player's token"),
}


class AddressLimits:
    """Counts each limited action per client address and refuses it past the setting."""

    def __init__(self, settings: Settings, counters: AddressCounters) -> None:
        self.settings = settings
        self.counters = counters

    def limit(self, action: AddressAction) -> int:
        """Requests of `action` one address may make per window (0: no limit)."""
        if action == "players":
            return self.settings.players_per_address
        return self.settings.guest_games_per_address

    @redis_guarded
    async def admit(self, action: AddressAction, address: str | None) -> None:
        """Count one request of `action` from `address`; RateLimited (429) past the limit."""
        limit = self.limit(action)
        if limit <= 0:
            return
        window_s = self.settings.address_window_s
        client = (address or UNKNOWN_ADDRESS)[:MAX_ADDRESS_LENGTH]
        count, left_ms = await self.counters.hit(action, client, round(window_s * 1000))
        if count > limit:
            code, what = _CODES[action]
            raise RateLimited(
                code,
                f"at most {limit} {what} per {window_s:g} seconds from one address",
                retry_after=left_ms / 1000,
                details={"limit": limit, "window_s": window_s},
            )
