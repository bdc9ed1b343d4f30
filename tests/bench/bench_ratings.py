"""Ratings figures on the real Redis: rated results logged and folded by the ratings ledger
(as the workers do), against OpenSkill rating the same results in memory.

    .venv/bin/python -m tests.bench.bench_ratings [--results N]

- `ratings_folded_per_s`: N seeded results (2 to 5 seats, ties, 500 players, two games) logged
  one by one (one script each, as each finished game is) and then folded (200 entries per
  compare-and-set), per second of both;
- `ratings_rebuild_per_s`: the same log folded again from the start, as `skald
  rebuild-projections` does;
- `openskill_rates_per_s`: the same results rated with `openskill` alone, in memory: the
  baseline; `ratings_fold_vs_openskill` and `ratings_rebuild_vs_openskill` the ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
import uuid
from typing import Any

from redis.asyncio import Redis

from service.adapters.ratings.store import RatingsStore
from service.core.ratings.ledger import RatingLedger
from service.core.ratings.results import RESULT_ENCODER
from tests.unit.core.ratings.direct import fold_directly, random_results

REDIS_URL_DEFAULT = "redis://127.0.0.1:6379/0"
PLAYERS = 500
SEED = 17


async def ratings_figures(redis: Redis, results: int) -> dict[str, float]:
    """Log and fold `results` rated results, fold them again, and rate them in memory."""
    drawn = random_results(results, SEED, PLAYERS)
    store = RatingsStore(redis, f"bench-ratings-{uuid.uuid4().hex[:8]}:")
    ledger = RatingLedger(None, store)  # type: ignore[arg-type]  # no game is read here
    try:
        started = time.perf_counter()
        for result in drawn:
            await store.log_result(result.game_id, RESULT_ENCODER.encode(result))
        assert await ledger.fold() == results
        live_s = time.perf_counter() - started
        started = time.perf_counter()
        await store.reset(with_log=False)
        assert await ledger.fold() == results
        rebuild_s = time.perf_counter() - started
        started = time.perf_counter()
        fold_directly(drawn)
        memory_s = time.perf_counter() - started
    finally:
        doomed = [key async for key in redis.scan_iter(match=store.base + "*", count=1000)]
        for start in range(0, len(doomed), 1000):
            await redis.delete(*doomed[start : start + 1000])
    return {
        "ratings_results": results,
        "ratings_folded_per_s": results / live_s,
        "ratings_rebuild_per_s": results / rebuild_s,
        "openskill_rates_per_s": results / memory_s,
        "ratings_fold_vs_openskill": memory_s / live_s,
        "ratings_rebuild_vs_openskill": memory_s / rebuild_s,
    }


async def main(redis_url: str, results: int) -> dict[str, Any]:
    redis = Redis.from_url(redis_url)
    try:
        return await ratings_figures(redis, results)
    finally:
        await redis.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=int, default=5000)
    parser.add_argument("--redis-url", default=REDIS_URL_DEFAULT)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main(args.redis_url, args.results)), indent=2))
