"""The EventStore on Redis: Streams for events and the inbox, Lua for every atomic step.

`RedisEventStore` is composed of its parts by concern: the event log, the inbox and the
stored projections (`redis_log.py`) and the drain rounds (`redis_rounds.py`), over what they
share (`redis_base.py`), decoding replies with `redis_records.py`.

The client must be created with `decode_responses=False`: events and chain values are bytes.
"""

from __future__ import annotations

from typing import Any

import redis.exceptions
from redis import Redis as SyncRedis

from service.adapters.store.redis_log import RedisEventLog
from service.adapters.store.redis_rounds import RedisDrainRounds

# BZMPOP (idle runners wait on the ready set) came with Redis 7.0.
MIN_REDIS_VERSION = (7, 0)


def redis_version_problem(server_info: dict[str, Any]) -> str | None:
    """Why this Redis (its `INFO server` reply) cannot serve Skald, or None when it can."""
    reported = str(server_info.get("redis_version", ""))
    try:
        version = tuple(int(part) for part in reported.split(".")[:2])
    except ValueError:
        return f"cannot tell the Redis version from {reported!r}"
    if version < MIN_REDIS_VERSION:
        wanted = ".".join(map(str, MIN_REDIS_VERSION))
        return f"Redis {reported} is too old: Skald needs Redis {wanted} or later (BZMPOP)"
    return None


def redis_version_problem_at(url: str) -> str | None:
    """`redis_version_problem` of the Redis at `url`; None when it does not answer yet."""
    client = SyncRedis.from_url(url)
    try:
        return redis_version_problem(client.info("server"))
    except redis.exceptions.RedisError:
        return None
    finally:
        client.close()


class RedisEventStore(RedisEventLog, RedisDrainRounds):
    """Every store port on one Redis server (or cluster slot per game), keys under `prefix`."""

    async def token_hashes(self, game_id: str) -> dict[int, bytes]:
        """Each taken seat's token hash, as stored."""
        stored: Any = await self.redis.hgetall(self.keys(game_id).seats)
        return {int(seat): digest for seat, digest in stored.items()}

    async def holds(self, game_id: str) -> bool:
        """Whether the game's meta record is in Redis."""
        return bool(await self.redis.exists(self.keys(game_id).meta))
