"""What every part of the Redis adapter shares: the client, the key prefix, the scripts and
the runner limits."""

from __future__ import annotations

from redis.asyncio import Redis

from service.adapters.redis_clients import is_cluster
from service.adapters.store.drain_shards import SHARD_SUFFIX, DrainIndex, DrainShards
from service.adapters.store.keys import GameKeys, game_id_of_key, game_key_pattern
from service.adapters.store.replica_wait import ReplicaWait
from service.adapters.store.scripts import Scripts
from service.core.ports.records import RunnerLimits


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
        # On a Redis Cluster the game scripts touch their game's slot only (keys.py), and
        # each game's drain indexes are its shard's, or `{drain}` (drain_shards.py).
        self.cluster = is_cluster(redis)
        self.drain = DrainShards(
            prefix, self.cluster, self.runners.drain_shards, self.runners.max_runners
        )
        self.ready_key = self.drain.legacy.ready
        self.runners_key = self.drain.legacy.runners
        self.pending_key = self.drain.legacy.pending
        self._renewed: dict[str, float] = {}  # runner job id -> when it last renewed its slot
        self._homes: dict[str, list[DrainIndex]] = {}  # runner job id -> shards with its slot
        # runner job id -> when it last took from every shard, the shards that gave games
        self._passes: dict[str, tuple[float, frozenset[DrainIndex]]] = {}

    def keys(self, game_id: str) -> GameKeys:
        """The keys of one game."""
        return GameKeys(self.prefix, game_id)

    def placed_game_id(self, head: str) -> str:
        """`head`, or on a cluster with drain shards an id in the next shard's slot."""
        return self.drain.new_game_id(head)

    def runner_job_for(self, game_id: str, job_id: str) -> str:
        """`job_id`, naming the game's drain shard if it has one (`-shard<n>`): the runner
        then knows where its slot is without looking (redis_shard_takes.py)."""
        shard = self.drain_index(game_id).shard
        return job_id if shard is None else f"{job_id}{SHARD_SUFFIX}{shard}"

    def drain_index(self, game_id: str) -> DrainIndex:
        """The drain indexes that serve the game (its shard's on a cluster, if it has one)."""
        return self.drain.of(game_id)

    async def wake_game(
        self, game_id: str, runner_job_id: str, claim: bool, pending: bool = False
    ) -> bool:
        """Mark the game ready (keeping its place), and pending too if asked; with `claim`,
        claim a runner slot for `runner_job_id` (True) if fewer than the game's drain
        indexes allow are alive."""
        index = self.drain_index(game_id)
        keys = [index.ready, index.runners]
        if pending:
            keys.append(index.pending)
        claimed = await self.scripts.wake(
            keys=keys,
            args=[
                game_id,
                runner_job_id,
                index.max_runners if claim else 0,
                self.runners.slot_ttl_ms,
            ],
        )
        return bool(claimed)

    async def stranded_games(self) -> list[str]:
        """Games with commands past their inbox cursor (a SCAN over every game's meta): on a
        Redis Cluster a submit that stopped between its script and its wake leaves its game
        in no index, and only this finds it. In play or not, each is then marked pending."""
        pattern = game_key_pattern(self.prefix)[: -len("*")] + "meta"
        ids = []
        async for key in self.redis.scan_iter(match=pattern, count=1000):
            game_id = game_id_of_key(self.prefix, key.decode() if isinstance(key, bytes) else key)
            if game_id is not None:
                ids.append(game_id)
        stranded = []
        for start in range(0, len(ids), 500):
            batch = ids[start : start + 500]
            async with self.redis.pipeline(transaction=False) as pipe:
                for game_id in batch:
                    pipe.hget(self.keys(game_id).meta, "cur")
                    pipe.xrevrange(self.keys(game_id).inbox, count=1)
                replies = await pipe.execute()
            for n, game_id in enumerate(batch):
                cursor, last = replies[2 * n], replies[2 * n + 1]
                if last and _stream_id(last[0][0]) > _stream_id(cursor or b"0-0"):
                    stranded.append(game_id)
        return stranded


def _stream_id(raw: bytes | str) -> tuple[int, int]:
    text = raw.decode() if isinstance(raw, bytes) else raw
    ms, _, seq = text.partition("-")
    return int(ms), int(seq or 0)
