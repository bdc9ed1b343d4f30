"""The notification projector's batched reads and settles (`NotifySurvey`) on a real Redis
Cluster (the games' keys on several nodes, the marks index on one) and on one Redis: every
marked game read with its cursor, head and seats; marks forgotten unless marked again since,
cursors moved."""

from __future__ import annotations

import uuid

import pytest
from redis.asyncio import Redis

from service.adapters.notification_feed import NotifiedCursors, NotifyMarks
from service.adapters.notify_survey import NotifySurvey
from service.adapters.store.keys import GameKeys

pytestmark = pytest.mark.anyio

GAMES = [f"game-{n}" for n in range(12)]  # enough to spread over the three masters


async def test_reads_every_marked_game_and_settles_those_not_marked_again(
    either_redis: Redis,
) -> None:
    prefix = f"survey-{uuid.uuid4().hex[:8]}:"
    marks, cursors = NotifyMarks(either_redis, prefix), NotifiedCursors(either_redis, prefix)
    survey = NotifySurvey(either_redis, prefix, marks.key)
    try:
        for n, game_id in enumerate(GAMES):
            keys = GameKeys(prefix, game_id)
            await either_redis.hset(keys.meta, mapping={"v": 10 + n, "st": "playing"})
            await either_redis.hset(keys.seats, mapping={"0": b"p:ada", "1": b"\x01hash"})
            await cursors.set(game_id, n)
        await marks.mark(GAMES)
        surveyed = await survey.marked(100)
        assert [(g.game_id, g.notified, g.version, g.finished) for g in surveyed] == sorted(
            (game_id, n, 10 + n, False) for n, game_id in enumerate(GAMES)
        )
        assert all(g.seats == {0: b"p:ada", 1: b"\x01hash"} for g in surveyed)
        # One game is marked again meanwhile: its mark stays; every cursor given moves.
        await either_redis.zadd(marks.key, {GAMES[0]: 1e15})
        assert await survey.settle([(g, g.version) for g in surveyed]) == len(GAMES) - 1
        assert [g for g, _ in await marks.marked(100)] == [GAMES[0]]
        assert [await cursors.get(g) for g in GAMES] == [10 + n for n in range(len(GAMES))]
    finally:
        for game_id in GAMES:
            keys = GameKeys(prefix, game_id)
            for key in (keys.meta, keys.seats, keys.base + "notified"):
                await either_redis.delete(key)
        await either_redis.delete(marks.key)
