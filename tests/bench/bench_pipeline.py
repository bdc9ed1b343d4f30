"""Figures of the command path on a real Redis: storage per event and cost per command.

    .venv/bin/python -m tests.bench.bench_pipeline [--games N]

Costs are printed as ratios against baselines measured in the same process (a Redis PING
round trip; the same commands decided and folded in-process), so figures from different
machines compare. Uses REDIS_URL (default redis://127.0.0.1:6379/0) under a unique key
prefix, and deletes its keys afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import time
import uuid
from typing import Any

import msgspec
import structlog
from redis.asyncio import Redis

from domain.chance import Chance
from domain.engine import decide, fold
from domain.games import get_game
from service import bootstrap
from service.adapters.notifications import Publisher
from service.adapters.store.keys import GameKeys
from service.adapters.store.side import Lobby, Views
from service.core.pipeline.drain import Drainer
from service.core.pipeline.runner import DrainRunner
from service.core.pipeline.session import SessionCache
from service.shared.settings import Settings
from tests.fakes.players import play_through_service
from tests.fakes.race import RACE, Move, RaceConfig, register_race
from tests.fakes.scheduler import RecordingScheduler

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


class Bench:
    """A facade and an in-process drainer on the real Redis, under a unique prefix."""

    def __init__(self, redis: Redis, batch_size: int) -> None:
        prefix = f"bench-{uuid.uuid4().hex[:8]}:"
        self.settings = Settings(
            redis_url=REDIS_URL,
            key_prefix=prefix,
            rate_per_seat=0,
            batch_size=batch_size,
            runner_idle_s=0.0,  # runners are run by hand here, one after another
        )
        self.redis = redis
        self.scheduler = RecordingScheduler()
        self.skald = bootstrap.skald(self.settings, redis, self.scheduler)
        self.drainer = Drainer(
            self.skald.store,
            Views(redis, prefix, self.skald.store.scripts),
            Lobby(redis, prefix),
            Publisher(redis, prefix),
            SessionCache(64),
            batch_size,
            10_000,
        )
        self.runner = DrainRunner.configured(
            self.settings, self.skald.store, self.drainer, self.scheduler
        )

    async def run_jobs(self) -> None:
        await self.scheduler.run_all(self.runner)

    async def clean(self) -> None:
        keys = [k async for k in self.redis.scan_iter(match=f"{self.settings.key_prefix}*")]
        if keys:
            await self.redis.delete(*keys)


async def per_call_us(call: Any, repeat: int) -> float:
    started = time.perf_counter()
    for _ in range(repeat):
        await call()
    return (time.perf_counter() - started) / repeat * 1e6


async def storage(redis: Redis, game_name: str, games: int) -> tuple[float, float, int]:
    """(event stream bytes per event, all game keys' bytes per event, events) over games."""
    bench = Bench(redis, 64)
    game = get_game(game_name)
    config = msgspec.to_builtins(game.example_configs()[0])
    stream_bytes = total_bytes = events = 0
    for n in range(games):
        game_id = (await bench.skald.commands.create_game(game_name, config)).game_id

        async def settle(command_id: str, game_id: str = game_id) -> Any:
            await bench.run_jobs()
            return await bench.skald.commands.outcome(game_id, command_id)

        seeds = [1000 * n + seat for seat in range(config["players"])]
        # Client-chosen ids are typically UUIDs: measure with ids that long.
        await play_through_service(bench.skald, game_id, seeds, settle, prefix=str(uuid.uuid4()))
        keys = GameKeys(bench.settings.key_prefix, game_id)
        count = await redis.xlen(keys.events)
        stream_bytes += await redis.memory_usage(keys.events, samples=0) or 0
        for key in keys.all_static():
            if await redis.exists(key):
                total_bytes += await redis.memory_usage(key, samples=0) or 0
        events += count
    await bench.clean()
    return stream_bytes / events, total_bytes / events, events


async def command_costs(redis: Redis, commands: int) -> dict[str, float]:
    """Microseconds per command: submit, drain at batch 1 and 64, and in-process play."""
    register_race()
    figures: dict[str, float] = {}
    figures["redis ping"] = await per_call_us(redis.ping, 2000)
    for batch_size in (1, 64):
        bench = Bench(redis, batch_size)
        config = msgspec.to_builtins(RaceConfig(players=2, target=10**9))
        game_id = (await bench.skald.commands.create_game("race", config)).game_id
        first = (await bench.skald.reads.turn(game_id, None)).to_act[0]
        started = time.perf_counter()
        for n in range(commands):
            seat = first if n % 2 == 0 else 1 - first
            await bench.skald.commands.submit(
                game_id, seat, f"c{n}", {"type": "Move", "steps": 1}, "r"
            )
        submitted = time.perf_counter()
        bench.scheduler.scheduled[:] = bench.scheduler.scheduled[:1]
        await bench.run_jobs()
        drained = time.perf_counter()
        outcome = await bench.skald.commands.outcome(game_id, f"c{commands - 1}")
        assert outcome.status == "applied", outcome
        figures["submit"] = (submitted - started) / commands * 1e6
        figures[f"drain, batch {batch_size}"] = (drained - submitted) / commands * 1e6
        await bench.clean()
    state = fold(RACE, RACE.setup(RaceConfig(players=2, target=10**9), Chance(b"s" * 32)))
    chance = Chance(b"s" * 32)
    started = time.perf_counter()
    for _ in range(commands):
        state = fold(RACE, decide(RACE, state, Move(1), state.turn, chance), state)
    figures["in-process decide+evolve"] = (time.perf_counter() - started) / commands * 1e6
    return figures


async def main(games: int, commands: int) -> None:
    # One log line per batch is the service's contract, not a figure: keep the output clean.
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    redis = Redis.from_url(REDIS_URL)
    register_race()
    print("storage per event (MEMORY USAGE, exact):")
    names = ["race"] + [name for name in ("fjords",) if _registered(name)]
    for name in names:
        stream, total, events = await storage(redis, name, games)
        print(
            f"  {name:8} {events:6} events  stream {stream:6.1f} B/event"
            f"  all game keys {total:6.1f} B/event"
        )
    costs = await command_costs(redis, commands)
    ping = costs["redis ping"]
    print(f"cost per command over {commands} commands (ratio to one Redis PING round trip):")
    for name, micros in costs.items():
        print(f"  {name:26} {micros:9.1f} us   x{micros / ping:6.2f}")
    await redis.aclose()


def _registered(name: str) -> bool:
    try:
        get_game(name)
    except KeyError:
        return False
    return True


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--commands", type=int, default=2000)
    args = parser.parse_args()
    asyncio.run(main(args.games, args.commands))
