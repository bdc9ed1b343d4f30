"""What every part of the Redis adapter shares: the client, the key prefix, the scripts and
the runner limits."""

from __future__ import annotations

from redis.asyncio import Redis

from service.adapters.redis_clients import is_cluster
from service.adapters.store.keys import (
    GameKeys,
    drain_prefix,
    pending_key,
    ready_key,
    runners_key,
)
from service.adapters.store.records import RunnerLimits
from service.adapters.store.replica_wait import ReplicaWait
from service.adapters.store.scripts import Scripts


class RedisGames:
    """Games on one Redis server (or cluster slot per game), keys under `prefix`."""

    def __init__(
        self,
        redis: Redis,
        prefix: str = "",
        scripts: Scripts | None = None,
        runners: RunnerLimits | None = None,
        replica_wait: ReplicaWait | None = None,
    ) -> None:
        self.redis = redis
        self.prefix = prefix
        self.scripts = scripts or Scripts(redis)
        self.runners = runners or RunnerLimits()
        self.replica_wait = replica_wait or ReplicaWait()
        # On a Redis Cluster the game scripts touch their game's slot only (keys.py).
        self.cluster = is_cluster(redis)
        self.ready_key = ready_key(drain_prefix(prefix, self.cluster))
        self.runners_key = runners_key(drain_prefix(prefix, self.cluster))
        self.pending_key = pending_key(drain_prefix(prefix, self.cluster))
        self._renewed: dict[str, float] = {}  # runner job id -> when it last renewed its slot

    def keys(self, game_id: str) -> GameKeys:
        """The keys of one game."""
        return GameKeys(self.prefix, game_id)

    async def wake_game(self, game_id: str, runner_job_id: str, max_runners: int) -> bool:
        """Mark the game ready (keeping its place); claim a runner slot for `runner_job_id`
        (True) if fewer than `max_runners` are alive (0: only mark it)."""
        claimed = await self.scripts.wake(
            keys=[self.ready_key, self.runners_key],
            args=[game_id, runner_job_id, max_runners, self.runners.slot_ttl_ms],
        )
        return bool(claimed)
