"""Leaderboard pages follow a cursor that names the last player shown and their score: when
ratings move between two pages, the players who did not move are neither skipped nor shown
twice (an offset would do both), ties included."""

from __future__ import annotations

import fakeredis
import pytest

from service.adapters.ratings.store import RatingsStore
from service.adapters.store.players import Players
from service.core.ratings.openskill_fold import STANDING_ENCODER, Standing
from service.core.ratings.variants import rating_key
from service.facade.rating_side import RatingSide
from service.shared.errors import InvalidInput
from tests.fakes.race import RaceGame

pytestmark = pytest.mark.anyio

KEY = rating_key("race", "standard")


async def rate(store: RatingsStore, player_id: str, mu: float) -> None:
    """Give the player a standing whose displayed rating is `mu - 3` (sigma 1)."""
    standing = Standing(mu, 1.0, 1)
    await store.redis.hset(store.player_key(player_id), KEY, STANDING_ENCODER.encode(standing))
    await store.redis.zadd(store.board_key(KEY), {player_id: standing.display})


async def test_a_page_starts_after_the_last_player_shown_though_ratings_moved(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    store = RatingsStore(fake_redis, "t:")
    side = RatingSide(store, Players(fake_redis, "t:"))
    # Scores 30, 25, 25, 25, 20, 10: three players tied (ordered by id, descending).
    for player_id, mu in (("a", 33), ("b", 28), ("c", 28), ("d", 28), ("e", 23), ("f", 13)):
        await rate(store, player_id, mu)
    first = await side.leaderboard("race", None, None, 2)
    assert [e.player_id for e in first.entries] == ["a", "d"]
    assert [e.place for e in first.entries] == [1, 2]
    # Between the pages: "a" drops to the bottom, "f" climbs to the top.
    await rate(store, "a", 10)
    await rate(store, "f", 40)
    second = await side.leaderboard("race", None, first.cursor, 2)
    assert [e.player_id for e in second.entries] == ["c", "b"]  # none skipped, none repeated
    # The cursor's own player moved: the page still starts where that player stood.
    await rate(store, "b", 5)
    third = await side.leaderboard("race", None, second.cursor, 2)
    assert [e.player_id for e in third.entries] == ["e", "a"]
    assert [e.place for e in third.entries] == [4, 5]
    last = await side.leaderboard("race", None, third.cursor, 2)
    assert [e.player_id for e in last.entries] == ["b"] and last.cursor is None
    # Earlier versions' offsets still page.
    by_offset = await side.leaderboard("race", None, "1", 2)
    assert [e.place for e in by_offset.entries] == [2, 3]


@pytest.mark.parametrize("cursor", ["x1", "nan:a", "inf:a", "1.5:", "1.5:a-b", "1.5"])
async def test_a_cursor_no_page_gave_is_refused(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis, cursor: str
) -> None:
    side = RatingSide(RatingsStore(fake_redis, "t:"), Players(fake_redis, "t:"))
    with pytest.raises(InvalidInput):
        await side.leaderboard("race", None, cursor, 2)
