"""Games players created that wait for their players, by when they opened: the workers
cancel those that waited longer than `open_game_ttl_s` (service.core.pipeline.open_rooms).

<prefix>open-rooms   sorted set: game id -> when it opened (ms)

A game leaves it when it starts or is cancelled; one left behind (a crash in between) is
harmless: its expiry's cancel is refused by a game that started, and it then leaves. Games
opened before the index are found in the lobby once per worker (`backfill`).
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis

from service.adapters.store.keys import GameKeys, lobby_key


class OpenRooms:
    """The index of games waiting for their players."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self.key = f"{prefix}open-rooms"

    async def opened(self, game_id: str, now_ms: int) -> None:
        """Index a game waiting for its players."""
        await self.redis.zadd(self.key, {game_id: now_ms}, nx=True)

    async def closed(self, game_id: str) -> None:
        """The game no longer waits (started or cancelled)."""
        await self.redis.zrem(self.key, game_id)

    async def opened_before(self, before_ms: int, limit: int) -> list[str]:
        """Games waiting since before `before_ms`, oldest first."""
        found: Any = await self.redis.zrangebyscore(
            self.key, "-inf", f"({before_ms}", start=0, num=limit
        )
        return [game_id.decode() for game_id in found]

    async def backfill(self) -> int:
        """Index the games players created that waited in the lobby before this index
        existed (the lobby's games with a creator); how many were added."""
        added = 0
        async for game_id, opened in self.redis.zscan_iter(lobby_key(self.prefix)):
            if await self.redis.exists(GameKeys(self.prefix, game_id.decode()).base + "creator"):
                new: Any = await self.redis.zadd(self.key, {game_id: int(opened)}, nx=True)
                added += int(new)
        return added

    async def now_ms(self) -> int:
        """The Redis clock, in ms."""
        now: Any = await self.redis.time()
        return int(now[0]) * 1000 + int(now[1]) // 1000
