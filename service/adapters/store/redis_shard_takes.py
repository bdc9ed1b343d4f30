"""Drain runners on a Redis Cluster with drain shards (drain_shards.py): taking ready games from
every shard, and ending a runner in the shards where it holds a slot.

A blocking BZMPOP cannot span slots, so a runner takes from every set of drain indexes in one
non-blocking pass per round (`runner_take` on each, pipelined with the round's commits; the
cluster client sends each master its part at once), and blocks on the ready set of one shard
where it holds a slot only when the whole pass found nothing. Each pass also renews the
runner's slots wherever it holds one (`runner_take` renews only an existing slot). A game made
ready in a shard where this runner holds no slot is not missed: that shard counts its own
runner slots, so its submit either saw a live runner there or started one.

The shards a runner holds slots in (its homes) are looked up once, on its first pass (a ZSCORE
on each set's runners): the slot it was started with, or those its predecessor handed over.
"""

from __future__ import annotations

from itertools import chain, zip_longest
from typing import Any

from service.adapters.store.drain_shards import DrainIndex
from service.adapters.store.redis_base import RedisGames
from service.adapters.store.redis_records import popped_games, text
from service.adapters.store.scripts import ScriptCall


class RedisShardTakes(RedisGames):
    """Runner takes and ends over every set of drain indexes (a cluster with shards)."""

    async def commit_then_take_shards(
        self, calls: list[ScriptCall], runner_job_id: str, count: int, wait_s: float
    ) -> tuple[list[Any], list[str]]:
        """Run a round's commit calls with a take from every set of drain indexes, in one
        pipeline; when nothing was taken and `wait_s` > 0, wait that long on a home shard.
        Returns the commits' replies and the games taken."""
        indexes = self.drain.every
        # Up to twice a fair share from each set: a round stays near `count` games when load
        # is spread, and still fills up when a few shards hold the ready games.
        per_index = max(1, -(-2 * count // len(indexes)))
        homes = self._homes.get(runner_job_id)
        takes = [self._take_on(index, runner_job_id, per_index) for index in indexes]

        def look_up_homes(pipe: Any) -> None:
            for index in indexes:
                pipe.zscore(index.runners, runner_job_id)

        replies = await self.scripts.run_all(
            [*calls, *takes], None if homes is not None else look_up_homes, keep_errors=True
        )
        commits, taken_lists = replies[: len(calls)], replies[len(calls) : len(calls) + len(takes)]
        for reply in taken_lists:
            if isinstance(reply, Exception):
                raise reply
        if homes is None:
            scores = replies[len(calls) + len(takes) :]
            homes = [index for index, score in zip(indexes, scores, strict=True) if score]
            self._homes[runner_job_id] = homes
        # One from each set in turn: no shard's games wait behind another's.
        taken = [
            text(game)
            for game in chain.from_iterable(zip_longest(*taken_lists))
            if game is not None
        ]
        if taken or wait_s <= 0:
            return commits, taken
        home = homes[0] if homes else self.drain.legacy
        reply = await self.redis.bzmpop(wait_s, 1, [home.ready], min=True, count=count)
        return commits, popped_games(reply)

    def _take_on(self, index: DrainIndex, runner_job_id: str, count: int) -> ScriptCall:
        return (
            self.scripts.runner_take,
            [index.ready, index.runners],
            [runner_job_id, self.runners.slot_ttl_ms, count],
        )

    async def end_runner_shards(self, runner_job_id: str, next_job_id: str, keep: bool) -> bool:
        """Give up the runner's slot in each of its homes, handing each to `next_job_id`
        where games are ready (or `keep`); True when any was handed over. A runner holding
        no slot (it expired) ends in every set, as a runner did on the one ready set."""
        homes = self._homes.pop(runner_job_id, None)
        if homes is None:
            async with self.redis.pipeline(transaction=False) as pipe:
                for index in self.drain.every:
                    pipe.zscore(index.runners, runner_job_id)
                scores = await pipe.execute()
            homes = [index for index, score in zip(self.drain.every, scores, strict=True) if score]
        calls: list[ScriptCall] = [
            (
                self.scripts.runner_end,
                [index.ready, index.runners],
                [runner_job_id, next_job_id, self.runners.slot_ttl_ms, int(keep)],
            )
            for index in homes or self.drain.every
        ]
        return any(bool(reply) for reply in await self.scripts.run_all(calls))
