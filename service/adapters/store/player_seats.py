"""A player's seats on Redis: taking one, giving it back before the start, the index of the
player's games not over, and a rematch's seats kept for its former players.

<prefix>player:<id>:active   set: the games the player holds a seat in that are not over
                             (their limit), and `*` once it is complete (players made before
                             it have theirs built at their first join under a limit)
<prefix>game:{<id>}:hold     hash: until (ms, Redis clock), p:<player>: a rematch's seats

On one Redis a player's join is one script over the game's keys and the player's
(`join.lua`): the seat they already hold is found, or one is taken within their limit, and
the index is kept, all in one step. On a Redis Cluster the player's keys are in another slot:
the game is counted in the index first (`active_reserve.lua`, within the limit), the seat
taken (`join.lua`, one seat per player), and the count given back when no seat was taken.
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis

from service.adapters.redis_clients import is_cluster
from service.adapters.store.damage import game_absent
from service.adapters.store.keys import GameKeys, player_key
from service.adapters.store.scripts import Scripts
from service.adapters.store.side import refuse_seat
from service.core.ports.players import (
    PLAYER_SEAT_PREFIX,
    ActiveIndexMissing,
    ActiveLimitReached,
    player_seat_value,
)
from service.shared.errors import Conflict, Forbidden

INDEXED = "*"  # the index's member saying it is complete (no game id holds a star)


class PlayerSeats:
    """Seats held by players, and each player's games not over."""

    def __init__(self, redis: Redis, prefix: str, scripts: Scripts) -> None:
        self.redis = redis
        self.prefix = prefix
        self.scripts = scripts

    def _active_key(self, player_id: str) -> str:
        return player_key(self.prefix, player_id) + ":active"

    async def take(
        self, game_id: str, seat: int | None, player_id: str, name: str, limit: int, now_us: int
    ) -> tuple[int, int, int, bool]:
        """The seat the player holds, or one taken now: (seat, seats taken, seats in the game,
        whether it was held before). ActiveLimitReached, ActiveIndexMissing, or the seat's
        refusal (Conflict, ...)."""
        keys = GameKeys(self.prefix, game_id)
        player = player_key(self.prefix, player_id)
        game_keys = [keys.meta, keys.seats, keys.hold]
        args: list[Any] = [-1 if seat is None else seat, player_seat_value(player_id), name]
        args += ["player", limit, now_us, game_id]
        if not is_cluster(self.redis):
            reply = await self.scripts.join(
                keys=[*game_keys, self._active_key(player_id), player + ":games"], args=args
            )
            return await self._taken(keys, game_id, seat, reply)
        reserved = await self.scripts.active_reserve(
            keys=[self._active_key(player_id)], args=[game_id, limit]
        )
        self._check_reserved(reserved)
        try:
            reply = await self.scripts.join(keys=game_keys, args=args)
            taken = await self._taken(keys, game_id, seat, reply)
        except Exception:
            if reserved[0] == b"added":
                await self.redis.srem(self._active_key(player_id), game_id)
            raise
        await self.redis.zadd(player + ":games", {game_id: now_us}, nx=True)
        return taken

    @staticmethod
    def _check_reserved(reply: list[Any]) -> None:
        if reply[0] == b"unindexed":
            raise ActiveIndexMissing
        if reply[0] == b"limit":
            raise ActiveLimitReached

    async def _taken(
        self, keys: GameKeys, game_id: str, seat: int | None, reply: list[Any]
    ) -> tuple[int, int, int, bool]:
        if reply[0] in (b"ok", b"held"):
            return int(reply[1]), int(reply[2]), int(reply[3]), reply[0] == b"held"
        self._check_reserved(reply)
        await refuse_seat(self.redis, keys, game_id, seat, reply)
        raise AssertionError("unreachable")  # refuse_seat always raises

    async def leave(self, game_id: str, player_id: str) -> int:
        """Give back the seat the player holds in a game not started; the seat."""
        keys = GameKeys(self.prefix, game_id)
        game_keys = [keys.meta, keys.seats, keys.base + "creator", keys.commands]
        player = player_key(self.prefix, player_id)
        own = [] if is_cluster(self.redis) else [self._active_key(player_id), player + ":games"]
        reply = await self.scripts.leave(
            keys=[*game_keys, *own], args=[player_seat_value(player_id), game_id]
        )
        if reply[0] == b"nogame":
            await game_absent(self.redis, keys, game_id, "meta record")
        if reply[0] == b"none":
            raise Forbidden("player.no_seat", "you hold no seat in this game")
        if reply[0] == b"started":
            raise Conflict(
                "seat.game_started",
                "the game has started (or every seat is held and it is starting, or it is "
                "over): a seat can be given back only while the game waits for its players",
            )
        if not own:
            await self.redis.srem(self._active_key(player_id), game_id)
            await self.redis.zrem(player + ":games", game_id)
        return int(reply[1])

    async def active(self, player_id: str) -> list[str]:
        """The games the player's index counts as not over."""
        found: Any = await self.redis.smembers(self._active_key(player_id))
        return sorted(game_id.decode() for game_id in found if game_id != INDEXED.encode())

    async def unindex(self, player_id: str, game_ids: list[str]) -> None:
        """Drop games from the player's index of games not over."""
        if game_ids:
            await self.redis.srem(self._active_key(player_id), *game_ids)

    async def build_index(self, player_id: str, game_ids: list[str]) -> None:
        """Fill the index of a player made before it, and mark it complete."""
        await self.redis.sadd(self._active_key(player_id), INDEXED, *game_ids)

    async def game_over(self, game_id: str) -> None:
        """Drop a game that is over (finished or cancelled) from its players' indexes."""
        stored: Any = await self.redis.hvals(GameKeys(self.prefix, game_id).seats)
        for value in stored:
            if value.startswith(PLAYER_SEAT_PREFIX):
                player_id = value[len(PLAYER_SEAT_PREFIX) :].decode()
                await self.redis.srem(self._active_key(player_id), game_id)

    async def hold(self, game_id: str, player_ids: list[str], hold_ms: int) -> None:
        """Keep a rematch's seats for its former players for `hold_ms` (Redis clock)."""
        if not player_ids or hold_ms <= 0:
            return
        now: Any = await self.redis.time()
        until = int(now[0]) * 1000 + int(now[1]) // 1000 + hold_ms
        key = GameKeys(self.prefix, game_id).hold
        fields: dict[Any, Any] = {"until": until}
        fields |= {player_seat_value(player): 1 for player in player_ids}
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, mapping=fields)
            pipe.pexpire(key, hold_ms)
            await pipe.execute()
