"""The drain runners' rounds on Redis: leases, commits, the ready set and runner slots, each
round's games pipelined in one round trip (`scripts.Scripts.run_all`)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from redis.exceptions import ResponseError

from service.adapters.store.redis_records import opened_round, popped_games, text
from service.adapters.store.redis_shard_takes import RedisShardTakes
from service.adapters.store.scripts import ScriptCall
from service.core.ports.event_store import (
    AlreadyDecided,
    CommitFailed,
    CommitOutcome,
    GameMissing,
    LeaseLost,
    VersionConflict,
)
from service.core.ports.records import (
    RECORD_ENCODER,
    Batch,
    Committed,
    GameRound,
    Head,
    RoundRequest,
)


class RedisDrainRounds(RedisShardTakes):
    """`DrainRounds` on Redis."""

    notify_marks_key = ""  # where commits mark their games for notifying (marks_in_commit)

    async def commit(self, game_id: str, batch: Batch) -> Head:
        """Append a batch atomically; VersionConflict, LeaseLost, AlreadyDecided or
        CommitFailed otherwise."""
        call = self._commit_call(game_id, batch, finish=False)
        if isinstance(call, CommitFailed):
            raise call
        [reply] = await self.scripts.run_all([call], keep_errors=True)
        outcome = self._committed(game_id, batch, reply)
        await self._put_back([(game_id, outcome)])
        if isinstance(outcome, Committed):
            return outcome.head
        raise outcome

    async def commit_round(self, batches: Sequence[tuple[str, Batch]]) -> list[CommitOutcome]:
        """Commit, release and notify each game of a round, all in one round trip."""
        calls, failed = self._round_calls(batches)
        replies = await self.scripts.run_all(calls, keep_errors=True)
        outcomes = self._round_committed(batches, replies, failed)
        await self._put_back(list(zip((game_id for game_id, _ in batches), outcomes, strict=True)))
        return outcomes

    async def commit_round_then_take(
        self, batches: Sequence[tuple[str, Batch]], runner_job_id: str, count: int, wait_s: float
    ) -> tuple[list[CommitOutcome], list[str]]:
        """Commit the round, then take the runner's next games (BZMPOP when waiting), all in
        one pipeline: Redis runs the commits at once, and their replies come with the games."""
        calls, failed = self._round_calls(batches)
        commits = len(calls)
        if self.drain.sharded:  # a cluster with drain shards: take from every one
            replies, taken = await self.commit_then_take_shards(calls, runner_job_id, count, wait_s)
            outcomes = self._round_committed(batches, replies, failed)
            await self._put_back(list(zip((g for g, _ in batches), outcomes, strict=True)))
            return outcomes, taken
        if wait_s <= 0:
            calls.append(self._take_call(runner_job_id, count))
            *replies, taken = await self.scripts.run_all(calls, keep_errors=True)
            outcomes = self._round_committed(batches, replies, failed)
            await self._put_back(list(zip((g for g, _ in batches), outcomes, strict=True)))
            return outcomes, [text(g) for g in taken]
        # Blocks on the server (BZMPOP, Redis 7): a game marked ready wakes the runner at once,
        # and under load it returns at once with up to `count` games.
        if self._renewal_due(runner_job_id):
            calls.append(self._take_call(runner_job_id, 0))
        ready_key = self.ready_key
        *replies, reply = await self.scripts.run_all(
            calls,
            [("BZMPOP", wait_s, 1, ready_key, "MIN", "COUNT", count)],
            keep_errors=True,
        )
        outcomes = self._round_committed(batches, replies[:commits], failed)
        await self._put_back(list(zip((g for g, _ in batches), outcomes, strict=True)))
        return outcomes, popped_games(reply)

    async def _put_back(self, outcomes: Sequence[tuple[str, CommitOutcome]]) -> None:
        """On a cluster, mark ready the games in no shard whose commit said commands still
        wait (otherwise the commit script did it). A crash before this leaves them to the
        sweeper."""
        if not self.cluster:
            return
        for game_id, outcome in outcomes:
            if (
                isinstance(outcome, Committed)
                and outcome.put_back
                and not self.drain_index(game_id).atomic
            ):
                await self.wake_game(game_id, "", False)

    def _round_calls(
        self, batches: Sequence[tuple[str, Batch]]
    ) -> tuple[list[ScriptCall], dict[int, CommitFailed]]:
        """The commit calls of a round's batches; those that cannot be encoded fail alone."""
        calls: list[ScriptCall] = []
        failed: dict[int, CommitFailed] = {}
        for n, (game_id, batch) in enumerate(batches):
            call = self._commit_call(game_id, batch, finish=True)
            if isinstance(call, CommitFailed):
                failed[n] = call
            else:
                calls.append(call)
        return calls, failed

    def _round_committed(
        self,
        batches: Sequence[tuple[str, Batch]],
        replies: Sequence[Any],
        failed: dict[int, CommitFailed],
    ) -> list[CommitOutcome]:
        sent = iter(replies)
        return [
            failed[n] if n in failed else self._committed(game_id, batch, next(sent))
            for n, (game_id, batch) in enumerate(batches)
        ]

    def _commit_call(self, game_id: str, batch: Batch, finish: bool) -> ScriptCall | CommitFailed:
        """The commit script's call (`finish` also gives the lease back and notifies), or why
        the batch cannot be encoded."""
        try:
            records = [RECORD_ENCODER.encode(decided.record) for decided in batch.decided]
        except (OverflowError, TypeError, ValueError) as exc:
            return CommitFailed(game_id, f"the batch cannot be stored: {exc}")
        keys = self.keys(game_id)
        args: list[Any] = [
            batch.lease,
            batch.expected_version,
            batch.cursor,
            batch.head_hash,
            int(batch.finished),
            batch.lease_ttl_ms,
            len(batch.events),
            len(batch.decided),
            int(finish),
            game_id,
            keys.updates if finish else "",
        ]
        for event in batch.events:
            args += [event.data, event.hash, event.command_id or ""]
        for decided, record in zip(batch.decided, records, strict=True):
            args += [decided.key, decided.command_id, record]
        for name, value in batch.views.items():
            args += [name, value]
        script_keys = [
            keys.meta,
            keys.events,
            keys.commands,
            keys.lease,
            keys.views,
            keys.inbox,
        ]
        index = self.drain_index(game_id)
        if index.atomic:  # else the game's slot only (6 keys, commit.lua)
            script_keys.append(index.ready)
            if self.cluster:  # a shard's (8 keys): the channel is a sharded one all the same
                script_keys.append(index.pending)
            elif self.notify_marks_key:  # one Redis (9 keys): the commit marks for notifying
                script_keys += [self.notify_marks_key, keys.seats]
        return self.scripts.commit, script_keys, args

    def marks_in_commit(self, marks_key: str) -> bool:
        """Have every commit that decided commands mark its game in `marks_key` (the
        notification projector's index) in the commit script itself, unless guests hold all
        its seats (commit.lua); not on a cluster, where the index lies in another slot than
        the game (False: the caller marks)."""
        if self.cluster:
            return False
        self.notify_marks_key = marks_key
        return True

    @staticmethod
    def _committed(game_id: str, batch: Batch, reply: list[Any] | Exception) -> CommitOutcome:
        if isinstance(reply, ResponseError):  # the script failed for this game alone
            return CommitFailed(game_id, str(reply))
        if isinstance(reply, Exception):
            raise reply
        kind = reply[0]
        if kind == b"ok":
            head = Head(int(reply[1]), batch.head_hash, batch.cursor, batch.finished)
            return Committed(head, bool(int(reply[2])))
        if kind == b"lease":
            return LeaseLost(game_id)
        if kind == b"nogame":
            return GameMissing(game_id)
        if kind == b"conflict":
            return VersionConflict(game_id, batch.expected_version, int(reply[1]))
        return AlreadyDecided(game_id, text(reply[1]))

    async def open_round(
        self, requests: Sequence[RoundRequest], ttl_ms: int, limit: int
    ) -> list[GameRound | None]:
        """Open each game of a round (lease, head, commands, missing events) in one round
        trip; None in a game's place when it is leased elsewhere or does not exist."""
        calls: list[ScriptCall] = []
        for request in requests:
            keys = self.keys(request.game_id)
            script_keys = [keys.lease, keys.fence, keys.meta, keys.inbox, keys.events, keys.secret]
            calls.append(
                (self.scripts.open_round, script_keys, [ttl_ms, limit, request.known_version])
            )
        return [opened_round(reply) for reply in await self.scripts.run_all(calls)]

    async def release_lease(self, game_id: str, token: int) -> bool:
        """Give the lease back if `token` holds it; re-mark the game ready if commands wait."""
        keys = self.keys(game_id)
        script_keys = [keys.lease, keys.meta, keys.inbox]
        index = self.drain_index(game_id)
        if index.atomic:  # else the game's slot only (release_lease.lua)
            script_keys.append(index.ready)
        put_back = await self.scripts.release_lease(keys=script_keys, args=[token, game_id])
        if put_back and not index.atomic:
            await self.wake_game(game_id, "", False)
        return bool(put_back)

    async def lease_held(self, game_id: str) -> bool:
        """Whether some worker holds the game's lease now."""
        return bool(await self.redis.exists(self.keys(game_id).lease))

    async def take_ready(
        self, runner_job_id: str, count: int = 1, wait_s: float = 0.0
    ) -> list[str]:
        """Up to `count` games waiting longest, taken off the ready set, waiting up to
        `wait_s` for one when none is ready; renews the runner's slot."""
        _, taken = await self.commit_round_then_take([], runner_job_id, count, wait_s)
        return taken

    def _take_call(self, runner_job_id: str, count: int) -> ScriptCall:
        """runner_take: renew the runner's slot and take up to `count` games (0: only renew)."""
        self._renewed[runner_job_id] = time.monotonic()
        keys = [self.ready_key, self.runners_key]
        return self.scripts.runner_take, keys, [runner_job_id, self.runners.slot_ttl_ms, count]

    def _renewal_due(self, runner_job_id: str) -> bool:
        # A waiting runner renews its slot often enough to keep it (every third of its TTL),
        # not on every round: a round trip saved per round at light load.
        renewed = self._renewed.get(runner_job_id)
        return renewed is None or time.monotonic() - renewed > self.runners.slot_ttl_ms / 3000

    async def end_runner(self, runner_job_id: str, next_job_id: str, keep: bool = False) -> bool:
        """Give up the runner's slot, or hand it to `next_job_id` (True) if games are ready
        or `keep` is asked for."""
        self._renewed.pop(runner_job_id, None)
        if self.drain.sharded:
            return await self.end_runner_shards(runner_job_id, next_job_id, keep)
        handed_over = await self.scripts.runner_end(
            keys=[self.ready_key, self.runners_key],
            args=[runner_job_id, next_job_id, self.runners.slot_ttl_ms, int(keep)],
        )
        return bool(handed_over)

    async def wake(self, game_id: str, runner_job_id: str) -> bool:
        """Mark the game ready; claim a slot for `runner_job_id` (True) if one is free."""
        return await self.wake_game(game_id, runner_job_id, True)
