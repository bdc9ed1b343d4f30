"""Everything the ratings projection holds, read back for comparison (the log excluded)."""

from __future__ import annotations

from typing import Any

from service.adapters.ratings.store import RatingsStore


async def projection(store: RatingsStore) -> dict[str, Any]:
    """Every ratings, leaderboard and history key with its content."""
    found: dict[str, Any] = {}
    redis = store.redis
    async for raw in redis.scan_iter(match=store.base + "*"):
        key = raw.decode()
        family = key[len(store.base) :].split(":")[0]
        if family == "player":
            found[key] = await redis.hgetall(key)
        elif family in ("board", "history"):
            found[key] = await redis.zrange(key, 0, -1, withscores=True)
    return found
