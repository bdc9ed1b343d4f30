"""Ratings on Redis: the log of rated results, and the ratings, leaderboards and histories
folded from it.

Every key carries the hash tag `{ratings}`, so on Redis Cluster they share one slot and each
script here touches that slot alone; no script touches a game's keys (which live in the game's
own slot). `<base>` is `<prefix>ratings:{ratings}:`.

<base>log               stream: entry `<place>-1` = {g: game id, r: the encoded rated result}
<base>logged            hash: game id -> its place in the log (0: finished, rating nobody)
<base>folded            string: `<place>@<epoch>`, the last log place folded into the ratings
<base>player:<id>       hash: rating key -> the player's encoded standing
<base>board:<key>       sorted set: player id by displayed rating (mu - 3 sigma)
<base>history:<id>      sorted set: the player's encoded history entries by log place
<base>catch-up          string (expires): the worker doing this interval's catch-up
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from redis.asyncio import Redis

from service.core.ports.ratings import Folded, SeatUpdate

SCAN_BATCH = 1000
FOLDED_START = "0@0"


@cache
def _script(name: str) -> str:
    return resources.files("service.adapters.ratings").joinpath(f"lua/{name}.lua").read_text()


class RatingsStore:
    """The ratings keys under `prefix` on `redis`."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.base = f"{prefix}ratings:{{ratings}}:"
        self._log_result: Any = redis.register_script(_script("log_result"))
        self._fold: Any = redis.register_script(_script("fold"))
        self._reset: Any = redis.register_script(_script("reset"))
        self._board_after: Any = redis.register_script(_script("board_after"))

    @property
    def log_key(self) -> str:
        return self.base + "log"

    @property
    def logged_key(self) -> str:
        return self.base + "logged"

    @property
    def folded_key(self) -> str:
        return self.base + "folded"

    def player_key(self, player_id: str) -> str:
        return f"{self.base}player:{player_id}"

    def board_key(self, rating_key: str) -> str:
        return f"{self.base}board:{rating_key}"

    def history_key(self, player_id: str) -> str:
        return f"{self.base}history:{player_id}"

    async def log_result(self, game_id: str, result: bytes | None) -> tuple[bool, int]:
        """Log a finished game's result once (None: it rates nobody); whether it was logged
        now, and its place in the log (0 for none)."""
        reply = await self._log_result(
            keys=[self.log_key, self.logged_key], args=[game_id, result or b""]
        )
        return bool(int(reply[0])), int(reply[1])

    async def unlogged(self, game_ids: list[str]) -> list[str]:
        """Those of the games not logged yet."""
        missing: list[str] = []
        for start in range(0, len(game_ids), SCAN_BATCH):
            batch = game_ids[start : start + SCAN_BATCH]
            found: Any = await self.redis.hmget(self.logged_key, batch)
            missing += [game_id for game_id, place in zip(batch, found, strict=True) if not place]
        return missing

    async def folded(self) -> Folded:
        """Where the fold stands."""
        raw: Any = await self.redis.get(self.folded_key)
        return Folded.parse(FOLDED_START if raw is None else raw.decode())

    async def entries(self, after: int, count: int) -> list[tuple[int, bytes]]:
        """Up to `count` log entries (place, encoded result) after place `after`, in order."""
        rows: Any = await self.redis.xrange(self.log_key, f"{after + 1}-1", "+", count=count)
        return [(int(entry_id.split(b"-")[0]), fields[b"r"]) for entry_id, fields in rows]

    async def log_length(self) -> int:
        """How many rated results the log holds."""
        return int(await self.redis.xlen(self.log_key))

    async def standings(self, rating_key: str, player_ids: list[str]) -> dict[str, bytes]:
        """The stored standing of each player who has one in this game and variant."""
        found = await self.standings_of([(rating_key, player_id) for player_id in player_ids])
        return {player_id: standing for (_, player_id), standing in found.items()}

    async def standings_of(self, pairs: list[tuple[str, str]]) -> dict[tuple[str, str], bytes]:
        """The stored standing of each (rating key, player) pair that has one: one round trip."""
        if not pairs:
            return {}
        async with self.redis.pipeline(transaction=False) as pipe:
            for rating_key, player_id in pairs:
                pipe.hget(self.player_key(player_id), rating_key)
            found = await pipe.execute()
        return {pair: s for pair, s in zip(pairs, found, strict=True) if s is not None}

    async def store_fold(self, expected: Folded, reached: Folded, seats: list[SeatUpdate]) -> bool:
        """Store the fold's updates and its new place, unless the fold moved meanwhile."""
        keys = [self.folded_key]
        args: list[Any] = [str(expected), str(reached)]
        for seat in seats:
            keys += [
                self.player_key(seat.player_id),
                self.board_key(seat.rating_key),
                self.history_key(seat.player_id),
            ]
            args += [
                seat.rating_key,
                seat.standing,
                repr(seat.score),
                seat.player_id,
                seat.place,
                seat.history_entry,
            ]
        return bool(int(await self._fold(keys=keys, args=args)))

    async def reset(self, with_log: bool) -> None:
        """Drop every folded rating (and the log, `with_log`): the fold starts again at 0."""
        doomed: list[str] = []
        for family in ("player:*", "board:*", "history:*"):
            async for key in self.redis.scan_iter(match=self.base + family, count=SCAN_BATCH):
                doomed.append(key.decode() if isinstance(key, bytes) else key)
        await self._reset(
            keys=[self.folded_key, self.log_key, self.logged_key, *doomed],
            args=["log" if with_log else "keep"],
        )

    async def claim_catch_up(self, owner: str, interval_ms: int) -> bool:
        """Claim this interval's catch-up for `owner` (one worker per interval does it)."""
        return bool(
            await self.redis.set(self.base + "catch-up", owner, nx=True, px=max(interval_ms, 1))
        )

    async def player_standings(self, player_id: str) -> dict[str, bytes]:
        """Every standing of a player, by rating key."""
        stored: Any = await self.redis.hgetall(self.player_key(player_id))
        return {key.decode(): value for key, value in stored.items()}

    async def board_page(self, rating_key: str, offset: int, limit: int) -> list[str]:
        """Player ids at places offset+1 .. offset+limit of a leaderboard, best first."""
        rows: Any = await self.redis.zrevrange(
            self.board_key(rating_key), offset, offset + limit - 1
        )
        return [row.decode() for row in rows]

    async def board_scores(self, rating_key: str, player_ids: list[str]) -> list[float]:
        """The leaderboard scores of players (0 for one not on it)."""
        if not player_ids:
            return []
        found: Any = await self.redis.zmscore(self.board_key(rating_key), player_ids)
        return [0.0 if score is None else float(score) for score in found]

    async def board_after(
        self, rating_key: str, after: tuple[float, str] | None, limit: int
    ) -> tuple[int, list[tuple[str, float]]]:
        """(how many places come before, (player id, score) of up to `limit` players) of a
        leaderboard page, best first: from the top, or right after the player `after` names
        at the score it names, where that pair stands in the board's order (score down,
        then player id down, as Redis orders it) even if the player moved since. Atomic."""
        args: list[Any] = [limit] if after is None else [limit, repr(after[0]), after[1]]
        found: Any = await self._board_after(keys=[self.board_key(rating_key)], args=args)
        rows = [(found[i].decode(), float(found[i + 1])) for i in range(1, len(found), 2)]
        return int(found[0]), rows

    async def history_page(self, player_id: str, before: float, limit: int) -> list[bytes]:
        """Up to `limit` of the player's history entries before log place `before`, newest
        first."""
        rows: Any = await self.redis.zrevrangebyscore(
            self.history_key(player_id), f"({before}", "-inf", start=0, num=limit
        )
        return list(rows)
