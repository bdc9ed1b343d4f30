"""What every part of the Redis adapter shares: the client, the key prefix, the scripts and
the runner limits."""

from __future__ import annotations

from redis.asyncio import Redis

from service.adapters.store.keys import GameKeys, pending_key, ready_key, runners_key
from service.adapters.store.records import RunnerLimits
from service.adapters.store.scripts import Scripts


class RedisGames:
    """Games on one Redis server (or cluster slot per game), keys under `prefix`."""

    def __init__(
        self,
        redis: Redis,
        prefix: str = "",
        scripts: Scripts | None = None,
        runners: RunnerLimits | None = None,
    ) -> None:
        self.redis = redis
        self.prefix = prefix
        self.scripts = scripts or Scripts(redis)
        self.runners = runners or RunnerLimits()
        self.ready_key = ready_key(prefix)
        self.runners_key = runners_key(prefix)
        self.pending_key = pending_key(prefix)
        self._renewed: dict[str, float] = {}  # runner job id -> when it last renewed its slot

    def keys(self, game_id: str) -> GameKeys:
        """The keys of one game."""
        return GameKeys(self.prefix, game_id)
