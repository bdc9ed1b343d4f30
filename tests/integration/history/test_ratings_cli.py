"""`skald rebuild-projections` rebuilds the ratings on the real Redis: from their log, and with
`--ratings-from-games` from the finished games, to the same numbers."""

from __future__ import annotations

import pytest

from service.adapters.ratings.store import RatingsStore
from service.adapters.store.redis_store import RedisEventStore
from service.core.ratings.openskill_fold import STANDING_DECODER
from service.core.ratings.results import RESULT_DECODER
from service.shared.settings import Settings
from tests.integration.history.test_cli import finished_race, skald
from tests.unit.core.ratings.direct import fold_directly
from tests.unit.core.ratings.snapshot import projection

pytestmark = [pytest.mark.anyio, pytest.mark.redis]


async def test_rebuild_projections_rebuilds_the_ratings(
    real_store: RedisEventStore, core_settings: Settings
) -> None:
    # Given two finished races whose seats players held (one not logged by any worker)
    for game_id, players in [("g1", ["ada", "bo", "cy"]), ("g2", ["cy", "bo", "ada"])]:
        await finished_race(real_store, game_id)
        seats = {str(seat): f"p:{player}" for seat, player in enumerate(players)}
        await real_store.redis.hset(real_store.keys(game_id).seats, mapping=seats)
    ratings = RatingsStore(real_store.redis, core_settings.key_prefix)
    # When the projections are rebuilt
    first = skald(core_settings, "rebuild-projections")
    # Then both games are logged, in the order they finished, and folded
    assert first.returncode == 0, first.stderr
    assert "ratings: 2 finished games logged (2 rated), 2 rated results folded" in first.stdout
    results = [RESULT_DECODER.decode(data) for _, data in await ratings.entries(0, 10)]
    assert [r.game_id for r in results] == ["g1", "g2"]
    expected, _ = fold_directly(results)
    for player in ("ada", "bo", "cy"):
        stored = STANDING_DECODER.decode((await ratings.player_standings(player))["race/standard"])
        assert (stored.mu, stored.sigma, stored.games) == expected["race/standard", player]
    folded = await projection(ratings)
    # And rebuilding again, from the log or from the games, gives the same numbers
    again = skald(core_settings, "rebuild-projections")
    assert "ratings: 0 finished games logged (0 rated), 2 rated results folded" in again.stdout
    assert await projection(ratings) == folded
    from_games = skald(core_settings, "rebuild-projections", "--ratings-from-games")
    assert from_games.returncode == 0, from_games.stderr
    assert "2 finished games logged (2 rated)" in from_games.stdout
    assert await projection(ratings) == folded
