"""What the notification projector reads of its marked games before it projects them, in one
round trip for all of them, and how it settles the games with nobody to tell, in one more.

Per marked game the projector needs its notified cursor, its head (version, finished) and its
seats (which are players'). Read one call at a time that was four round trips per game per
projector step, and a step in each worker process: at a few thousand moves a second the
projector's reads outweighed the drain's own (docs/benchmarks.md). Most games at such rates are
guests' (no player to notify): for those the step only moves the cursor to the head and forgets
the mark, both batched here.

Keys as notification_feed.py names them: `game:{<id>}:notified`, the game's meta and seats, and
`notify:marked`. On a Redis Cluster the pipelines span slots (redis-py sends each node its
part), and the settling script, which touches `notify:marked` alone, is a call of its own.
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis

from service.adapters.redis_clients import is_cluster
from service.adapters.script_pipeline import command_step, run_steps, script_step
from service.adapters.store.keys import GameKeys
from service.core.ports.notifications import MarkedGame

# Forget each game's mark unless it was marked again since it was read.
# KEYS: marked; ARGV: game, score pairs. Returns how many marks were forgotten.
_SETTLE_MANY = """
local forgotten = 0
for i = 1, #ARGV, 2 do
    local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
    if score and tonumber(score) == tonumber(ARGV[i + 1]) then
        forgotten = forgotten + redis.call('ZREM', KEYS[1], ARGV[i])
    end
end
return forgotten
"""


class NotifySurvey:
    """The projector's batched reads and settles (see the module docstring)."""

    def __init__(self, redis: Redis, prefix: str, marks_key: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self.marks_key = marks_key
        self._settle_many = redis.register_script(_SETTLE_MANY)

    def _cursor(self, game_id: str) -> str:
        return GameKeys(self.prefix, game_id).base + "notified"

    async def marked(self, limit: int) -> list[MarkedGame]:
        """Up to `limit` games marked longest ago, each with its cursor, head and seats."""
        rows: Any = await self.redis.zrange(self.marks_key, 0, limit - 1, withscores=True)
        if not rows:
            return []
        game_ids = [game_id.decode() for game_id, _ in rows]
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                keys = GameKeys(self.prefix, game_id)
                pipe.get(self._cursor(game_id))
                pipe.hmget(keys.meta, ["v", "st"])
                pipe.hgetall(keys.seats)
            replies: list[Any] = await pipe.execute()
        found = []
        for n, (game_id, (_, score)) in enumerate(zip(game_ids, rows, strict=True)):
            notified, (version, status), seats = replies[3 * n : 3 * n + 3]
            found.append(
                MarkedGame(
                    game_id,
                    int(score),
                    0 if notified is None else int(notified),
                    int(version) if version is not None and version.isdigit() else None,
                    status == b"finished",
                    {int(seat): value for seat, value in seats.items()},
                )
            )
        return found

    async def settle(self, settled: list[tuple[MarkedGame, int | None]]) -> int:
        """Move each game's cursor to the version given with it (None: leave it), then forget
        each mark unless it was marked again since; how many marks were forgotten. The cursor
        goes first: a crash in between leaves a mark, and its game is looked at again."""
        if not settled:
            return 0
        args: list[Any] = []
        for game, _ in settled:
            args += [game.game_id, game.mark]
        cursors = [
            command_step("SET", self._cursor(game.game_id), version)
            for game, version in settled
            if version is not None
        ]
        settle = script_step(self._settle_many, [self.marks_key], args)
        if is_cluster(self.redis):  # the cursors and the marks lie in other slots: cursors first
            await run_steps(self.redis, cursors)
            replies = await run_steps(self.redis, [settle])
        else:  # one connection runs them in order, in one round trip
            replies = await run_steps(self.redis, [*cursors, settle])
        forgotten: Any = replies[-1]
        return int(forgotten)
