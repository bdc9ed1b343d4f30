"""Drain runners on a Redis Cluster with drain shards (drain_shards.py): taking ready games from
every shard, and ending a runner in the shards where it holds a slot.

A blocking BZMPOP cannot span slots, so a runner takes from every set of drain indexes in one
non-blocking pass per round (`runner_take` on each, pipelined with the round's commits; the
cluster client sends each master its part at once), and blocks on the ready set of one shard
where it holds a slot only when the whole pass found nothing, `WAIT_SLICE_S` at a time with a
pass between. Each pass also renews the runner's slots wherever it holds one (`runner_take`
renews only an existing slot). A game made ready in a shard where this runner holds no slot
is not missed: that shard counts its own runner slots, so its submit either saw a live runner
there or started one (which the slices keep from waiting long behind idle runners).

A pass costs the client about 20 µs a set (17 by default), which rounds of a few games would
pay for nothing: between full passes, at most `FULL_PASS_S` apart, a busy runner takes from
its homes and the sets that gave games last time only, and looks at every set again when
those ran dry.

The shards a runner holds slots in (its homes): a runner started by a submit has its shard in
its job id (`-shard<n>`, `RedisGames.runner_job_for`), and its first take is from there only
(one script on one master: a runner started for games another runner took meanwhile ends
cheaply); other runners (successors) look theirs up on their first pass (a ZSCORE on each
set's runners).
"""

from __future__ import annotations

import time
from itertools import chain, zip_longest
from typing import Any

from service.adapters.store.drain_shards import DrainIndex
from service.adapters.store.redis_base import RedisGames
from service.adapters.store.redis_records import popped_games, text
from service.adapters.store.scripts import ScriptCall

# An idle runner looks at every shard this often (see `_wait`).
WAIT_SLICE_S = 0.05
# A busy runner takes from every set at least this often, else from the busy ones only.
FULL_PASS_S = 0.01


class RedisShardTakes(RedisGames):
    """Runner takes and ends over every set of drain indexes (a cluster with shards)."""

    async def commit_then_take_shards(
        self, calls: list[ScriptCall], runner_job_id: str, count: int, wait_s: float
    ) -> tuple[list[Any], list[str]]:
        """Run a round's commit calls with a take from every set of drain indexes, in one
        pipeline; when nothing was taken and `wait_s` > 0, wait that long on a home shard.
        Returns the commits' replies and the games taken."""
        indexes = self.drain.every
        homes = self._homes.get(runner_job_id)
        if homes is None and not calls and (home := self.drain.home_of_job(runner_job_id)):
            # A runner's first take, its shard named in its id: that shard only, one script
            # on one master. Started for games another runner has taken meanwhile, it ends
            # at this price (or waits, with passes over every shard, when asked to).
            self._homes[runner_job_id] = [home]
            [first] = await self.scripts.run_all([self._take_on(home, runner_job_id, count)])
            if first or wait_s <= 0:
                return [], [text(game) for game in first]
            return [], await self._wait(home, runner_job_id, count, wait_s)
        targets = self._targets(runner_job_id, homes)
        takes = self._takes(runner_job_id, count, targets)

        look_up_homes = [("ZSCORE", index.runners, runner_job_id) for index in indexes]
        replies = await self.scripts.run_all(
            [*calls, *takes], () if homes is not None else look_up_homes, keep_errors=True
        )
        commits, taken_lists = replies[: len(calls)], replies[len(calls) : len(calls) + len(takes)]
        for reply in taken_lists:
            if isinstance(reply, Exception):
                raise reply
        if homes is None:
            scores = replies[len(calls) + len(takes) :]
            homes = [index for index, score in zip(indexes, scores, strict=True) if score]
            self._homes[runner_job_id] = homes
        self._note_pass(runner_job_id, targets, taken_lists)
        taken = _interleaved(taken_lists)
        if not taken and len(targets) < len(indexes):  # the busy shards ran dry: look at all
            taken = await self._pass(runner_job_id, count)
        if taken or wait_s <= 0:
            return commits, taken
        return commits, await self._wait(
            homes[0] if homes else self.drain.legacy, runner_job_id, count, wait_s
        )

    async def _wait(
        self, home: DrainIndex, runner_job_id: str, count: int, wait_s: float
    ) -> list[str]:
        """Wait up to `wait_s` for a game: blocked on the home shard's ready set (a game made
        ready there wakes the runner at once), a slice at a time, each followed by a pass over
        every set. A runner waiting holds its worker: the runner started for another shard
        may be queued behind it, so games there wait one slice at most, not `wait_s`."""
        deadline = time.monotonic() + wait_s
        while (left := deadline - time.monotonic()) > 0:
            reply = await self.redis.bzmpop(
                min(left, WAIT_SLICE_S), 1, [home.ready], min=True, count=count
            )
            if taken := popped_games(reply):
                return taken
            if taken := await self._pass(runner_job_id, count):
                return taken
        return []

    async def _pass(self, runner_job_id: str, count: int) -> list[str]:
        """A take from every set, alone in its round trip."""
        indexes = self.drain.every
        replies = await self.scripts.run_all(self._takes(runner_job_id, count, indexes))
        self._note_pass(runner_job_id, indexes, replies)
        return _interleaved(replies)

    def _targets(self, runner_job_id: str, homes: list[DrainIndex] | None) -> list[DrainIndex]:
        """The sets to take from this round: every one at most `FULL_PASS_S` apart (and on a
        runner's first pass); between, its homes and those that gave games last time. A pass
        costs the client about 20 µs a set, which rounds of a few games would pay for
        nothing; a shard left out meanwhile has its own runner slot."""
        indexes = self.drain.every
        last = self._passes.get(runner_job_id)
        if homes is None or last is None or time.monotonic() - last[0] >= FULL_PASS_S:
            return indexes
        busy = last[1]
        return [index for index in indexes if index in busy or index in homes]

    def _note_pass(self, runner_job_id: str, targets: list[DrainIndex], replies: list[Any]) -> None:
        busy = frozenset(index for index, got in zip(targets, replies, strict=True) if got)
        if len(targets) == len(self.drain.every):
            self._passes[runner_job_id] = (time.monotonic(), busy)
        else:
            self._passes[runner_job_id] = (self._passes[runner_job_id][0], busy)

    def _takes(self, runner_job_id: str, count: int, indexes: list[DrainIndex]) -> list[ScriptCall]:
        """runner_take on each set: up to twice a fair share of `count` from each shard (a
        round stays near `count` games when the load is spread, and still fills when a few
        shards hold the ready games), up to `count` from `{drain}` (every game from before the
        shards); each renews the runner's slot where it holds one."""
        share = max(1, -(-2 * count // len(self.drain.shards)))
        return [
            self._take_on(index, runner_job_id, count if index.shard is None else share)
            for index in indexes
        ]

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
        self._passes.pop(runner_job_id, None)
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


def _interleaved(taken_lists: list[Any]) -> list[str]:
    """The games each set gave, one from each set in turn: no shard's wait behind another's."""
    return [
        text(game) for game in chain.from_iterable(zip_longest(*taken_lists)) if game is not None
    ]
