"""The game's side keys on Redis: seats, pre-encoded views, the lobby and the pending index.

Unlike the event store these are derived or auxiliary data: views and the lobby can be rebuilt
from events; seat token hashes and the pending index are the only other state.
"""

from __future__ import annotations

import math
from typing import Any

from redis.asyncio import Redis

from service.adapters.redis_clients import is_cluster
from service.adapters.store.damage import game_absent
from service.adapters.store.drain_shards import DEFAULT_DRAIN_SHARDS, DrainShards
from service.adapters.store.keys import GameKeys, lobby_key
from service.adapters.store.scripts import Scripts
from service.core.ports.seats import SeatsFull
from service.shared.errors import Conflict, GameDamaged, InvalidInput, RetryLater


async def refuse_seat(
    redis: Redis, keys: GameKeys, game_id: str, seat: int | None, reply: list[Any]
) -> None:
    """Raise what the join script's refusal `reply` means."""
    kind = reply[0]
    if kind == b"nogame":
        await game_absent(redis, keys, game_id, "meta record")
    if kind == b"lost":
        raise GameDamaged(game_id, f"the record of seat {int(reply[1])} is missing")
    if kind == b"finished":
        raise Conflict("game.finished", "the game is over: no seat can be taken")
    if kind == b"range":
        raise InvalidInput(
            "seat.out_of_range",
            f"seat {seat} does not exist: this game has seats 0 to {int(reply[1]) - 1}",
            details={"seats": int(reply[1])},
        )
    if kind == b"taken":
        raise Conflict("seat.taken", f"seat {seat} is already taken", details={"seat": seat})
    if kind == b"reserved":
        left_s = int(reply[1]) / 1000
        raise RetryLater(
            "seat.reserved_for_rematch",
            "this rematch keeps its seats for the former game's players for a while: "
            f"others may join in {math.ceil(left_s)} s",
            retry_after=left_s,
            details={"retry_after_s": math.ceil(left_s)},
        )
    raise SeatsFull("seat.none_free", "every seat of this game is taken")


class Seats:
    """Seat token hashes (SHA-256, never the token) and player names."""

    def __init__(self, redis: Redis, prefix: str, scripts: Scripts) -> None:
        self.redis = redis
        self.prefix = prefix
        self.scripts = scripts

    async def take(
        self, game_id: str, seat: int | None, token_hash: bytes, name: str
    ) -> tuple[int, int, int]:
        """Take a seat for a guest (a token hash) or a bot (`bot`): (seat, seats taken now,
        seats in the game); Conflict when not free."""
        keys = GameKeys(self.prefix, game_id)
        kind = "bot" if token_hash == b"bot" else "guest"
        reply = await self.scripts.join(
            keys=[keys.meta, keys.seats, keys.hold],
            args=[-1 if seat is None else seat, token_hash, name, kind, 0, 0, game_id],
        )
        if reply[0] == b"ok":
            return int(reply[1]), int(reply[2]), int(reply[3])
        await refuse_seat(self.redis, keys, game_id, seat, reply)
        raise AssertionError("unreachable")  # refuse_seat always raises

    async def check_records(self, game_id: str) -> None:
        """GameDamaged when a seat a player took (named in the meta) has lost its record."""
        keys = GameKeys(self.prefix, game_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hkeys(keys.meta)
            pipe.hkeys(keys.seats)
            meta_fields, seats = await pipe.execute()
        named = {field[1:] for field in meta_fields if field[:1] == b"n" and field[1:].isdigit()}
        lost = sorted(int(seat) for seat in named - set(seats))
        if lost:
            listed = ", ".join(map(str, lost))
            many = len(lost) > 1
            damage = f"the record{'s' if many else ''} of seat{'s' if many else ''} {listed} "
            raise GameDamaged(game_id, damage + ("are missing" if many else "is missing"))

    async def names(self, game_id: str, seats: int) -> dict[int, str]:
        """The name each taken seat's player gave (kept in the meta as `n<seat>`)."""
        fields = [f"n{seat}" for seat in range(seats)]
        stored: Any = await self.redis.hmget(GameKeys(self.prefix, game_id).meta, fields)
        return {seat: name.decode() for seat, name in enumerate(stored) if name is not None}

    async def token_hashes(self, game_id: str) -> dict[int, bytes]:
        """Each taken seat's token hash."""
        stored: Any = await self.redis.hgetall(GameKeys(self.prefix, game_id).seats)
        return {int(seat): digest for seat, digest in stored.items()}


class Views:
    """Pre-encoded projections outside a commit (rebuilds); reads go through the store."""

    def __init__(self, redis: Redis, prefix: str, scripts: Scripts) -> None:
        self.redis = redis
        self.prefix = prefix
        self.scripts = scripts

    async def write(
        self, game_id: str, version: int, fields: dict[str, bytes], *, repair: bool = False
    ) -> bool:
        """Store views at `version` unless as new ones are there (newer ones, with `repair`:
        a repair writes the same version again over damaged ones); True when written."""
        args: list[Any] = [version, int(repair)]
        for name, value in fields.items():
            args += [name, value]
        written = await self.scripts.write_views(
            keys=[GameKeys(self.prefix, game_id).views], args=args
        )
        return bool(written)


class Lobby:
    """Open games (free seats, not over) by creation time, overall and per game."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix

    async def open(self, game_id: str, game: str, created_ms: int) -> None:
        """List a game as open."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(lobby_key(self.prefix), {game_id: created_ms})
            pipe.zadd(lobby_key(self.prefix, game), {game_id: created_ms})
            await pipe.execute()

    async def close(self, game_id: str, game: str) -> None:
        """Take a game out of the lobby (full or over)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrem(lobby_key(self.prefix), game_id)
            pipe.zrem(lobby_key(self.prefix, game), game_id)
            await pipe.execute()

    async def newest(self, game: str | None, limit: int) -> list[str]:
        """The ids of the newest open games."""
        ids: Any = await self.redis.zrevrange(lobby_key(self.prefix, game), 0, limit - 1)
        return [game_id.decode() for game_id in ids]


class PendingIndex:
    """Games with recently submitted commands, stamped by the Redis clock (for the sweeper).

    The event store's `submit` marks a game here in the same step as it queues the command.
    On a Redis Cluster with drain shards each shard has its own (drain_shards.py): a game is
    marked in its shard's, and the sweeper reads them all.
    """

    def __init__(
        self, redis: Redis, prefix: str, scripts: Scripts, shards: int = DEFAULT_DRAIN_SHARDS
    ) -> None:
        self.redis = redis
        self.drain = DrainShards(prefix, is_cluster(redis), shards)
        self.key = self.drain.legacy.pending
        self.scripts = scripts

    async def now_ms(self) -> int:
        """The Redis clock, in ms."""
        now: Any = await self.redis.time()
        seconds, micros = now
        return int(seconds) * 1000 + int(micros) // 1000

    async def marked_before(self, before_ms: int, limit: int) -> list[tuple[str, int]]:
        """(game id, mark) of games last marked at or before `before_ms`, oldest first."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for index in self.drain.every:
                pipe.zrangebyscore(
                    index.pending, "-inf", before_ms, start=0, num=limit, withscores=True
                )
            replies: Any = await pipe.execute()
        rows = sorted(
            ((int(score), game_id.decode()) for rows in replies for game_id, score in rows)
        )
        return [(game_id, mark) for mark, game_id in rows[:limit]]

    async def mark(self, game_id: str) -> None:
        """Mark a game now (on the Redis clock), for the sweeper to visit."""
        await self.scripts.mark_pending(keys=[self.drain.of(game_id).pending], args=[game_id])

    async def forget(self, game_id: str, mark: int) -> None:
        """Drop a game from the index unless it was marked again since `mark`."""
        await self.scripts.forget_pending(
            keys=[self.drain.of(game_id).pending], args=[game_id, mark]
        )
