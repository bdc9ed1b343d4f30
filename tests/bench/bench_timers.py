"""Turn timers under load: how fast passed deadlines are fired and acted on, and what a
timer on every game costs the end-to-end throughput.

    .venv/bin/python -m tests.bench.bench_timers [--quick]

In one run, against `skald serve` (1 uvicorn API process + N worker processes, each with its
deadline sweeper) on the real Redis:
- `timer_fired_per_s`: `pending` race games with a turn timer are created, then every one of
  their deadlines is made due at once (their scores set to 0 in the deadlines set: the time
  passes for all of them in one step). The figure is deadlines fired and acted on per second:
  from that moment until every game has applied its timeout (TurnTimedOut, the bot's move for
  the seat, and the other seat's new deadline, which is what the run counts in the set);
- `e2e_untimed_per_s` and `e2e_timed_per_s`: the e2e throughput run (bench_e2e.throughput)
  on tables without a timer and on tables with one (a day per move: indexed, never due),
  alternated `rounds` times; `timed_vs_untimed` is the ratio of their means (target: at
  least 0.95, at most 5 % lower).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from service.adapters.store.deadlines import deadlines_key
from tests.bench.bench_e2e import throughput
from tests.bench.live import live_skald
from tests.bench.load import new_client, open_tables

REDIS_URL_DEFAULT = "redis://127.0.0.1:6379/0"
DAY_CLOCK = {"per_move_s": 86_400}  # indexed on every move, never due during a run
POLL_S = 0.05
ZADD_CHUNK = 1000
TIMEOUT_S = 600.0


@dataclass(frozen=True)
class TimerLoad:
    """How hard the timer runs push."""

    pending: int  # timed games whose deadlines come due at once
    games: int  # tables of the throughput runs
    commands_per_game: int
    rounds: int = 2  # untimed and timed throughput runs, alternated
    workers: int = 2
    sweep_interval_s: float = 0.2  # how often each worker's sweeper looks for due deadlines


FULL_TIMERS = TimerLoad(10_000, 300, 25, rounds=3)
QUICK_TIMERS = TimerLoad(2_000, 100, 12)
TINY_TIMERS = TimerLoad(20, 4, 3, rounds=1, workers=1)


async def _members(redis: Redis, key: str) -> list[bytes]:
    return [member async for member, _ in redis.zscan_iter(key, count=1000)]


async def fired_per_s(url: str, redis: Redis, key: str, pending: int) -> float:
    """Deadlines fired and acted on per second, `pending` of them due at once."""
    async with new_client(url, 64) as http:
        await open_tables(http, pending, DAY_CLOCK)
    members = await _members(redis, key)
    if len(members) != pending:
        raise RuntimeError(f"{len(members)} deadlines indexed for {pending} timed games")
    started = time.perf_counter()
    for first in range(0, len(members), ZADD_CHUNK):
        chunk = members[first : first + ZADD_CHUNK]
        await redis.zadd(key, dict.fromkeys(chunk, 0), xx=True)
    # Each timeout acted on sets the other seat's deadline (a day away): one member above 0.
    while await redis.zcount(key, 1, "+inf") < pending:
        if time.perf_counter() - started > TIMEOUT_S:
            raise RuntimeError("the deadlines were not all acted on in time")
        await asyncio.sleep(POLL_S)
    return pending / (time.perf_counter() - started)


async def timer_figures(redis_url: str, load: TimerLoad) -> dict[str, Any]:
    """Every timer figure, in one dict (see the module docstring)."""
    figures: dict[str, Any] = {"timer_pending": load.pending}
    with live_skald(
        redis_url, load.workers, batch_size=64, sweep_interval_s=load.sweep_interval_s
    ) as live:
        redis = Redis.from_url(redis_url)
        try:
            key = deadlines_key(live.settings.key_prefix)
            figures["timer_fired_per_s"] = await fired_per_s(live.url, redis, key, load.pending)
        finally:
            await redis.aclose()
        untimed, timed = [], []
        for round_ in range(load.rounds):
            seed = 20_000_000 + round_ * 1_000_000
            args = (live.url, load.games, load.commands_per_game)
            untimed.append(await throughput(*args, echo=False, seed=seed))
            timed.append(await throughput(*args, echo=False, seed=seed, clock=DAY_CLOCK))
    figures["e2e_untimed_per_s"] = sum(untimed) / len(untimed)
    figures["e2e_timed_per_s"] = sum(timed) / len(timed)
    figures["timed_vs_untimed"] = figures["e2e_timed_per_s"] / figures["e2e_untimed_per_s"]
    figures["timer_rounds"] = {"untimed_per_s": untimed, "timed_per_s": timed}
    return figures


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--redis-url", default=REDIS_URL_DEFAULT)
    arguments = parser.parse_args()
    load = QUICK_TIMERS if arguments.quick else FULL_TIMERS
    print(json.dumps(asyncio.run(timer_figures(arguments.redis_url, load)), indent=2))
