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
- `timed_vs_untimed` (target: at least 0.95, at most 5 % lower): the e2e throughput run (as
  bench_e2e's, `games` tables) on tables without a timer and on tables with one (a day per
  move: indexed on every move, never due), alternated `rounds` times on a Redis of the run's
  own; the ratio of the timed runs' summed rates to the untimed ones'. On a busy shared
  machine two runs one after the other can differ by more than the 5 % measured, so
  `timed_vs_untimed_cpu` is reported beside it: the ratio of the CPU the service (API,
  workers and Redis) spends per command without and with timers (`cpu_ms_untimed`,
  `cpu_ms_timed`), which moves less with the other tenants.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import time
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from service.adapters.store.deadlines import deadlines_key
from tests.bench.bench_e2e import throughput
from tests.bench.bench_peer import own_redis
from tests.bench.cpu import CpuMeter, Group
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


async def timed_against_untimed(load: TimerLoad) -> dict[str, Any]:
    """The e2e throughput and the service's CPU per command, without and with timers."""
    with contextlib.ExitStack() as stack:
        redis_url, redis_pid = stack.enter_context(own_redis(persistent=False))
        live = stack.enter_context(
            live_skald(redis_url, load.workers, batch_size=64, sweep_interval_s=1.0)
        )
        meter = CpuMeter(
            [
                Group("api", live.pid, own_only=True),
                Group("workers", live.pid, without=("api",)),
                Group("redis", redis_pid),
            ]
        )
        rates: dict[str, list[float]] = {"untimed": [], "timed": []}
        cpu_s = {"untimed": 0.0, "timed": 0.0}
        for round_ in range(load.rounds):
            seed = 20_000_000 + round_ * 1_000_000
            for kind, clock in (("untimed", None), ("timed", DAY_CLOCK)):
                rate = await throughput(
                    live.url,
                    load.games,
                    load.commands_per_game,
                    echo=False,
                    seed=seed,
                    meter=meter,
                    clock=clock,
                )
                rates[kind].append(rate)
                cpu_s[kind] += sum(meter.used.values())
    commands = load.rounds * load.games * load.commands_per_game
    cpu_ms = {kind: 1000 * used / commands for kind, used in cpu_s.items()}
    figures: dict[str, Any] = {
        "e2e_untimed_per_s": sum(rates["untimed"]) / load.rounds,
        "e2e_timed_per_s": sum(rates["timed"]) / load.rounds,
        "cpu_ms_untimed": cpu_ms["untimed"],
        "cpu_ms_timed": cpu_ms["timed"],
        "timed_vs_untimed": sum(rates["timed"]) / sum(rates["untimed"]),
        "timer_rounds": {f"{kind}_per_s": rate for kind, rate in rates.items()},
    }
    # A run shorter than the kernel's CPU clock tick (a tiny load) may count no CPU at all.
    if cpu_ms["untimed"] > 0 and cpu_ms["timed"] > 0:
        figures["timed_vs_untimed_cpu"] = cpu_ms["untimed"] / cpu_ms["timed"]
    return figures


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
    figures.update(await timed_against_untimed(load))
    return figures


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--redis-url", default=REDIS_URL_DEFAULT)
    arguments = parser.parse_args()
    load = QUICK_TIMERS if arguments.quick else FULL_TIMERS
    print(json.dumps(asyncio.run(timer_figures(arguments.redis_url, load)), indent=2))
