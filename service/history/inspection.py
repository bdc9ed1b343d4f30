"""What Redis holds of one game beyond its record: which keys exist, its seats, whether a
runner will come for it. Verification reads this to find damage the events cannot show."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from service.adapters.redis_clients import is_cluster
from service.adapters.store.deadlines import Deadlines
from service.adapters.store.drain_shards import DEFAULT_DRAIN_SHARDS, DrainShards
from service.adapters.store.keys import GameKeys

# The key families of a game, by their attribute on GameKeys.
FAMILIES = ("meta", "events", "inbox", "commands", "secret", "seats", "views", "lease")


@dataclass(frozen=True)
class GameKeysState:
    """One game's keys as found at one moment (the Redis clock's `now_ms`)."""

    present: frozenset[str]  # the FAMILIES that exist
    quarantine: str | None  # the operator's reason, while quarantined
    seat_records: frozenset[int]  # seats with a stored token hash
    named_seats: frozenset[int]  # seats with a player's name in the meta (taken once)
    players_seats: dict[str, list[int]]  # each player holding a seat: their seats (one)
    ready_since_ms: int | None  # when it was marked ready for a runner, if it is
    live_runners: int  # drain runners whose slot has not expired
    now_ms: int


class KeyInspector:
    """Reads GameKeysState from a Redis (keys under `prefix`), one round trip a game."""

    def __init__(self, redis: Redis, prefix: str, drain_shards: int = DEFAULT_DRAIN_SHARDS) -> None:
        self.redis = redis
        self.prefix = prefix
        self.drain = DrainShards(prefix, is_cluster(redis), drain_shards)

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
