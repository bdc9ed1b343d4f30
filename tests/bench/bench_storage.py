"""Storage and rebuild figures on the real Redis, through the facade and an in-process drainer.

    .venv/bin/python -m tests.bench.bench_storage [--games N] [--rebuild-games N]

- Storage: finished Fjords games played by seeded bots; Redis `MEMORY USAGE` of the event
  stream per event, against the baseline of the events' own JSON bytes, and of every key of
  a finished game (per event and per game).
- Rebuild: every projection of N stored games recomputed from events (as `skald
  rebuild-projections` does), events per second, against reading the same games alone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import time
import uuid
from typing import Any

import msgspec
import structlog
from redis.asyncio import Redis

from domain.games import get_game
from service.adapters.store.keys import GameKeys
from service.history.loading import read_game
from tests.bench.bench_pipeline import Bench
from tests.fakes.players import play_through_service
from tests.fakes.race import race_config, register_race

REDIS_URL_DEFAULT = "redis://127.0.0.1:6379/0"
REBUILD_COMMANDS_PER_GAME = 12
SUBMIT_CONCURRENCY = 64


async def storage_figures(redis: Redis, game_name: str, games: int) -> dict[str, float]:
    """Bytes per event and per finished game of `game_name`, with the JSON baseline."""
    bench = Bench(redis, 64)
    config = msgspec.to_builtins(get_game(game_name).example_configs()[0])
    stream_bytes = total_bytes = events = payload_bytes = 0
    try:
        for n in range(games):
            game_id = (await bench.skald.commands.create_game(game_name, config)).game_id

            async def settle(command_id: str, game_id: str = game_id) -> Any:
                await bench.run_jobs()
                return await bench.skald.commands.outcome(game_id, command_id)

            seeds = [1000 * n + seat for seat in range(config["players"])]
            # Client-chosen ids are typically UUIDs: measure with ids that long.
            await play_through_service(bench.skald, game_id, seeds, settle, str(uuid.uuid4()))
            keys = GameKeys(bench.settings.key_prefix, game_id)
            entries: Any = await redis.xrange(keys.events)
            for _, fields in entries:
                payload_bytes += len(fields[b"e"])
                events += 1
            stream_bytes += await redis.memory_usage(keys.events, samples=0) or 0
            for key in keys.all_static():
                total_bytes += await redis.memory_usage(key, samples=0) or 0
    finally:
        await bench.clean()
    return {
        # The event log itself (the stream: event, chain hash, command id per entry).
        "bytes_per_event": stream_bytes / events,
        "event_json_bytes": payload_bytes / events,
        "bytes_vs_json": stream_bytes / payload_bytes,
        # Every key of a finished game (log, inbox, outcomes, views...), spread over its events.
        "game_bytes_per_event": total_bytes / events,
        "bytes_per_game": total_bytes / games,
        "events_per_game": events / games,
    }


async def rebuild_figures(redis: Redis, games: int) -> dict[str, float]:
    """Rebuild every projection of `games` stored race games; events per second."""
    register_race()
    bench = Bench(redis, 64)
    try:
        game_ids = await _store_games(bench, games)
        store = bench.skald.store
        started = time.perf_counter()
        events = 0
        for game_id in game_ids:
            events += len((await read_game(store, game_id)).events)
        read_s = time.perf_counter() - started
        started = time.perf_counter()
        for game_id in game_ids:
            result = await bench.skald.history.rebuild(game_id)
            assert result.status == "rebuilt", result
        rebuild_s = time.perf_counter() - started
    finally:
        await bench.clean()
    return {
        "rebuild_games": games,
        "rebuild_events": events,
        "rebuild_events_per_s": events / rebuild_s,
        "read_events_per_s": events / read_s,
        "rebuild_vs_read": read_s / rebuild_s,
    }


async def _store_games(bench: Bench, games: int) -> list[str]:
    # Commands go straight into each inbox and are drained in one batch per game: storing
    # ten thousand games is set-up, not the figure, and should not take minutes.
    gate = asyncio.Semaphore(SUBMIT_CONCURRENCY)

    async def one(n: int) -> str:
        async with gate:
            created = await bench.skald.commands.create_game("race", race_config(2, target=10**9))
            first = (await bench.skald.reads.turn(created.game_id, None)).to_act[0]
            for move in range(REBUILD_COMMANDS_PER_GAME):
                seat = (first + move) % 2
                command = {"type": "Move", "steps": 1 + (n + move) % 3}
                await bench.skald.commands.submit(
                    created.game_id, seat, f"c{move}", command, "bench"
                )
            return created.game_id

    game_ids = list(await asyncio.gather(*(one(n) for n in range(games))))
    await bench.run_jobs()
    return game_ids


async def main(games: int, rebuild_games: int) -> None:
    """Print the figures as JSON."""
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    redis = Redis.from_url(REDIS_URL_DEFAULT)
    figures = {
        **await storage_figures(redis, "fjords", games),
        **await rebuild_figures(redis, rebuild_games),
    }
    await redis.aclose()
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--rebuild-games", type=int, default=1000)
    args = parser.parse_args()
    asyncio.run(main(args.games, args.rebuild_games))
