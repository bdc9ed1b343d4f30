"""The deadlines index: every turn deadline not yet acted on, by when it passes.

<prefix>deadlines   sorted set: `<game id>|<seat>|<since>` scored by the deadline (ms)

The drain adds a batch's new deadlines before it commits the batch (a deadline is never
lost: a batch that then fails to commit leaves a deadline whose timeout is refused as stale);
the deadline sweeper turns due ones into timeout commands on the game's inbox and only then
removes them (a crash in between submits the same command id again: a duplicate, not a
second timeout). A game that ends has every member of its own unindexed (`drop_game`).
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis

from service.core.ports.deadlines import DueDeadline


def deadlines_key(prefix: str) -> str:
    """The sorted set of pending deadlines."""
    return f"{prefix}deadlines"


class Deadlines:
    """The deadlines sorted set."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.key = deadlines_key(prefix)

    async def add(self, game_id: str, deadlines: list[tuple[int, int, int]]) -> None:
        """Index (seat, since, deadline ms) deadlines of a game."""
        if deadlines:
            members = {f"{game_id}|{seat}|{since}": at for seat, since, at in deadlines}
            await self.redis.zadd(self.key, members)

    async def add_many(self, games: list[tuple[str, list[tuple[int, int, int]]]]) -> None:
        """Index the deadlines of several games in one call (a drain round's)."""
        members = {
            f"{game_id}|{seat}|{since}": at
            for game_id, deadlines in games
            for seat, since, at in deadlines
        }
        if members:
            await self.redis.zadd(self.key, members)

    async def drop_many(self, games: list[tuple[str, list[tuple[int, int]]]]) -> None:
        """Unindex (seat, since) deadlines of several games in one call."""
        members = [f"{game_id}|{seat}|{since}" for game_id, ended in games for seat, since in ended]
        if members:
            await self.redis.zrem(self.key, *members)

    async def drop(self, game_id: str, ended: list[tuple[int, int]]) -> None:
        """Unindex (seat, since) deadlines the game no longer waits on."""
        await self.redis.zrem(self.key, *(f"{game_id}|{seat}|{since}" for seat, since in ended))

    async def of_game(self, game_id: str) -> list[str]:
        """Every member indexed for one game (a scan of the set: for finished games and
        checks, not for every batch)."""
        members: list[str] = []
        async for member, _ in self.redis.zscan_iter(self.key, match=f"{game_id}|*", count=1000):
            members.append(member.decode() if isinstance(member, bytes) else str(member))
        return members

    async def drop_game(self, game_id: str) -> None:
        """Unindex every deadline of a game that is over: those its stream names, and any a
        batch indexed but never committed (a lost lease, a failed commit), which the stream
        cannot name."""
        members = await self.of_game(game_id)
        if members:
            await self.redis.zrem(self.key, *members)

    async def due(self, now_ms: int, limit: int) -> list[DueDeadline]:
        """Deadlines passed at `now_ms`, oldest first."""
        rows: Any = await self.redis.zrangebyscore(
            self.key, "-inf", now_ms, start=0, num=limit, withscores=True
        )
        found = []
        for member, score in rows:
            game_id, seat, since = member.decode().rsplit("|", 2)
            found.append(DueDeadline(game_id, int(seat), int(since), int(score)))
        return found

    async def remove(self, deadline: DueDeadline) -> None:
        """Forget a deadline acted on."""
        await self.redis.zrem(self.key, deadline.member)

    async def remove_all(self, acted: list[DueDeadline]) -> None:
        """Forget deadlines acted on, in one call."""
        if acted:
            await self.redis.zrem(self.key, *(deadline.member for deadline in acted))

    async def pending(self) -> int:
        """How many deadlines wait."""
        count: Any = await self.redis.zcard(self.key)
        return int(count)

    async def now_ms(self) -> int:
        """The Redis clock, in ms (every process's deadlines on one clock)."""
        seconds, micros = await self.redis.time()
        return int(seconds) * 1000 + int(micros) // 1000
