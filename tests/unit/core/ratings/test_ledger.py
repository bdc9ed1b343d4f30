"""The ratings ledger on Redis (fakeredis): the log folded into ratings equals OpenSkill run
directly on the same results, once per result, and again after a rebuild."""

from __future__ import annotations

import asyncio

import fakeredis
import pytest

from service.adapters.ratings.store import RatingsStore
from service.core.ratings.ledger import RatingLedger
from service.core.ratings.openskill_fold import STANDING_DECODER
from service.core.ratings.results import RESULT_ENCODER, RatedResult
from service.facade.rating_side import HISTORY_DECODER
from tests.unit.core.ratings.direct import fold_directly, random_results
from tests.unit.core.ratings.snapshot import projection

pytestmark = pytest.mark.anyio


class NoGames:
    """No game records: these tests log results directly."""

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"no game is read here ({name})")


@pytest.fixture
def store(fake_redis: fakeredis.aioredis.FakeRedis) -> RatingsStore:
    return RatingsStore(fake_redis, "t:")


async def log_all(store: RatingsStore, results: list[RatedResult]) -> None:
    for result in results:
        await store.log_result(result.game_id, RESULT_ENCODER.encode(result))


async def test_folded_ratings_equal_openskill_run_directly(store: RatingsStore) -> None:
    results = random_results(60, seed=7)
    assert {len(r.seats) for r in results} == {2, 3, 4, 5}
    assert any(len({s.rank for s in r.seats}) < len(r.seats) for r in results)  # ties
    await log_all(store, results)
    ledger = RatingLedger(NoGames(), store)  # type: ignore[arg-type]
    assert await ledger.fold() == 60
    expected, history = fold_directly(results)
    for (key, player), (mu, sigma, games) in expected.items():
        stored = STANDING_DECODER.decode((await store.standings(key, [player]))[player])
        assert (stored.mu, stored.sigma, stored.games) == (mu, sigma, games)
        score = await store.redis.zscore(store.board_key(key), player)
        assert score == pytest.approx(mu - 3 * sigma, abs=1e-9)
    for player, entries in history.items():
        rows = await store.history_page(player, float("inf"), 1000)
        decoded = [HISTORY_DECODER.decode(row) for row in reversed(rows)]
        assert [(e.game_id, e.display) for e in decoded] == entries


async def test_a_result_logged_twice_is_folded_once(store: RatingsStore) -> None:
    results = random_results(5, seed=3)
    await log_all(store, results)
    ledger = RatingLedger(NoGames(), store)  # type: ignore[arg-type]
    await ledger.fold()
    before = await projection(store)
    assert await store.log_result("game2", RESULT_ENCODER.encode(results[2])) == (False, 3)
    await log_all(store, results)
    assert await store.log_length() == 5
    assert await ledger.fold() == 0
    assert await projection(store) == before


async def test_folding_from_several_processes_at_once_folds_each_result_once(
    store: RatingsStore,
) -> None:
    results = random_results(40, seed=11)
    await log_all(store, results)
    ledgers = [RatingLedger(NoGames(), store) for _ in range(4)]  # type: ignore[arg-type]
    await asyncio.gather(*(ledger.fold() for ledger in ledgers))
    folded = await projection(store)
    await store.reset(with_log=False)
    assert await projection(store) == {}
    await ledgers[0].fold()
    assert await projection(store) == folded
    expected, _ = fold_directly(results)
    for (key, player), (mu, sigma, _games) in expected.items():
        stored = STANDING_DECODER.decode((await store.standings(key, [player]))[player])
        assert (stored.mu, stored.sigma) == (mu, sigma)


async def test_a_fold_that_read_before_a_reset_cannot_store(store: RatingsStore) -> None:
    results = random_results(3, seed=5)
    await log_all(store, results)
    folded = await store.folded()
    await store.reset(with_log=False)
    assert not await store.store_fold(folded, type(folded)(3, folded.epoch), [])
    assert (await store.folded()).place == 0
