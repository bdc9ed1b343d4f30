"""Counters per client address over fixed windows (the limits: service/facade/address_limits.py).

`<prefix>limit:<action>:<address>` counts one action's requests from one address in the
current window and expires with it. One script increments it and gives it its expiry when it
has none (the window's first request), so concurrent requests each see their own count: none
slips past the limit, and no counter is left without an expiry.
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis

_HIT = """
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
"""


class AddressCounters:
    """Per-address request counters under `prefix` on `redis`."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.base = f"{prefix}limit:"
        self._hit: Any = redis.register_script(_HIT)

    def key(self, action: str, address: str) -> str:
        """The counter of `action` from `address`."""
        return f"{self.base}{action}:{address}"

    async def hit(self, action: str, address: str, window_ms: int) -> tuple[int, int]:
        """Count one request: (requests in the window so far, milliseconds the window has
        left)."""
        reply = await self._hit(keys=[self.key(action, address)], args=[max(window_ms, 1)])
        return int(reply[0]), int(reply[1])
