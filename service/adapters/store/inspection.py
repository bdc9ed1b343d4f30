"""What Redis holds of one game beyond its record: which keys exist, its seats, whether a
runner will come for it (verification reads this to find damage the events cannot show); and
the steps a repair or a quarantine takes on those keys (service.history.repair decides them)."""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis
from redis.commands.core import AsyncScript

from service.adapters.redis_clients import is_cluster
from service.adapters.store.deadlines import Deadlines
from service.adapters.store.drain_shards import DEFAULT_DRAIN_SHARDS, DrainShards
from service.adapters.store.keys import GameKeys
from service.adapters.store.scripts import script_source
from service.core.ports.inspection import GameKeysState

# The key families of a game, by their attribute on GameKeys.
FAMILIES = ("meta", "events", "inbox", "commands", "secret", "seats", "views", "lease")


class RedisKeyInspector:
    """Reads GameKeysState from a Redis (keys under `prefix`), one round trip a game, and
    quarantines, releases and marks games there."""

    def __init__(self, redis: Redis, prefix: str, drain_shards: int = DEFAULT_DRAIN_SHARDS) -> None:
        self.redis = redis
        self.prefix = prefix
        self.drain = DrainShards(prefix, is_cluster(redis), drain_shards)
        script: Any = redis.register_script(script_source("quarantine"))
        self._quarantine: AsyncScript = script

    def _script_keys(self, game_id: str) -> list[str]:
        keys = GameKeys(self.prefix, game_id)
        pairs = [name for key in keys.quarantined() for name in (key, keys.set_aside(key))]
        index = self.drain.of(game_id)
        if not index.atomic:  # the game's slot only: release marks it afterwards
            return [keys.quarantine, keys.quarantine, keys.quarantine, *pairs]
        return [keys.quarantine, index.ready, index.pending, *pairs]

    async def quarantine(self, game_id: str, reason: str) -> bool:
        """Set the game's meta, views and command records aside; False when they already are."""
        done = await self._quarantine(keys=self._script_keys(game_id), args=["set", reason])
        return bool(done)

    async def release(self, game_id: str) -> bool:
        """Put a quarantined game's keys back; False when it was not quarantined."""
        done = await self._quarantine(keys=self._script_keys(game_id), args=["release", game_id])
        if done and not self.drain.of(game_id).atomic:
            await self.mark_waiting(game_id)
        return bool(done)

    async def set_head_hash(self, game_id: str, chain_value: bytes) -> None:
        """Set the head's chain value."""
        await self.redis.hset(GameKeys(self.prefix, game_id).meta, "h", chain_value)

    async def mark_waiting(self, game_id: str) -> None:
        """Mark the game ready (a live runner takes it at once) and pending (the sweeper
        starts a runner otherwise)."""
        seconds, micros = await self.redis.time()
        index = self.drain.of(game_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(index.ready, {game_id: seconds * 1_000_000 + micros}, nx=True)
            pipe.zadd(index.pending, {game_id: seconds * 1000 + micros // 1000})
            await pipe.execute()

    async def deadlines_of(self, game_id: str) -> list[str]:
        """The game's members in the deadlines set (a scan of the set)."""
        return await Deadlines(self.redis, self.prefix).of_game(game_id)

    async def inspect(self, game_id: str) -> GameKeysState:
        """The state of the game's keys now."""
        keys = GameKeys(self.prefix, game_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.execute_command("TIME")  # as a command: a cluster pipeline refuses `time()`
            for family in FAMILIES:
                pipe.exists(getattr(keys, family))
            pipe.get(keys.quarantine)
            pipe.hgetall(keys.seats)
            pipe.hkeys(keys.meta)
            index = self.drain.of(game_id)  # its drain shard's on a cluster, if it has one
            pipe.zscore(index.ready, game_id)
            pipe.zrangebyscore(index.runners, "-inf", "+inf", withscores=True)
            now, *found = await pipe.execute()
        exists, (reason, seats, meta_fields, ready, runners) = found[:8], found[8:]
        now_ms = int(now[0]) * 1000 + int(now[1]) // 1000
        return GameKeysState(
            present=frozenset(f for f, there in zip(FAMILIES, exists, strict=True) if there),
            quarantine=None if reason is None else _text(reason),
            seat_records=frozenset(int(seat) for seat in seats if _text(seat).isdigit()),
            named_seats=frozenset(_named_seats(meta_fields)),
            players_seats=_players_seats(seats),
            ready_since_ms=None if ready is None else int(ready) // 1000,
            live_runners=sum(1 for _, expires in runners if expires > now_ms),
            now_ms=now_ms,
        )


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _players_seats(seats: dict[Any, Any]) -> dict[str, list[int]]:
    # A player's seat is stored as `p:<player id>` in place of a token hash.
    held: dict[str, list[int]] = {}
    for seat, value in seats.items():
        if _text(seat).isdigit() and bytes(value).startswith(b"p:"):
            held.setdefault(bytes(value)[2:].decode(), []).append(int(seat))
    return {player: sorted(found) for player, found in held.items()}


def _named_seats(fields: list[Any]) -> list[int]:
    # The join script stores each player's name in the meta as `n<seat>`.
    names = (_text(field) for field in fields)
    return [int(name[1:]) for name in names if name[:1] == "n" and name[1:].isdigit()]
