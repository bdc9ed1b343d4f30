"""Cold storage figures on the real Redis: what finished Fjords games cost before and after
archiving, the archive's bytes per game, and replay from the archive against replay from Redis.

    .venv/bin/python -m tests.bench.bench_archive [--games N]

- Redis bytes (`MEMORY USAGE` of every key of a game): a game in play (created, every seat
  taken, before its first move), a finished game, and a finished game after archiving (its
  keys are gone: 0 is the target).
- Archive bytes: the compressed record of a finished game (target: at most 3 kB).
- Replay: the history of the game's last version (read, decoded, replayed) from a cold
  archive reader (nothing cached: the record is read, decompressed and its chain recomputed)
  against the same from Redis; a ratio of times (archived / Redis).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import tempfile
import time
import uuid
from typing import Any

import msgspec
import structlog
from redis.asyncio import Redis

from domain.games import get_game
from service import bootstrap
from service.adapters.archive.directory_archive import DirectoryArchive
from service.adapters.store.keys import GameKeys
from service.history.disclosure import OPERATOR
from tests.bench.bench_pipeline import Bench
from tests.fakes.players import play_through_service

REDIS_URL_DEFAULT = "redis://127.0.0.1:6379/0"
REPLAYS = 10


async def game_bytes(redis: Redis, prefix: str, game_id: str) -> int:
    """Redis bytes of every key of one game (MEMORY USAGE, exact)."""
    keys = [key async for key in redis.scan_iter(match=f"{prefix}game:{{{game_id}}}:*")]
    return sum([await redis.memory_usage(key, samples=0) or 0 for key in keys])


async def archive_figures(redis: Redis, game_name: str, games: int) -> dict[str, float]:
    """Redis and archive bytes of `games` finished games, and replay archived vs in Redis."""
    bench = Bench(redis, 64)
    prefix = bench.settings.key_prefix
    config = msgspec.to_builtins(get_game(game_name).example_configs()[0])
    in_play = finished = archived = record = 0
    redis_s = archive_s = 0.0
    with tempfile.TemporaryDirectory() as root:
        archive = DirectoryArchive(root)
        settings = msgspec.structs.replace(bench.settings, archive_after_s=0.0)
        archiver = bootstrap.archiver(redis, settings, archive)
        try:
            for n in range(games):
                game_id = (await bench.skald.commands.create_game(game_name, config)).game_id
                for seat in range(config["players"]):
                    await bench.skald.commands.join(game_id, seat, f"player {seat}")
                in_play += await game_bytes(redis, prefix, game_id)

                async def settle(command_id: str, game_id: str = game_id) -> Any:
                    await bench.run_jobs()
                    return await bench.skald.commands.outcome(game_id, command_id)

                seeds = [1000 * n + seat for seat in range(config["players"])]
                await play_through_service(bench.skald, game_id, seeds, settle, str(uuid.uuid4()))
                finished += await game_bytes(redis, prefix, game_id)
                redis_s += await _replay_time(bench, game_id, None)
                outcome = await archiver.archive_game(game_id, None)
                assert outcome.status == "archived", outcome
                record += outcome.record_bytes
                archived += await game_bytes(redis, prefix, game_id)
                assert not await redis.exists(GameKeys(prefix, game_id).meta)
                archive_s += await _replay_time(bench, game_id, archive)
        finally:
            await bench.clean()
    return {
        "redis_bytes_per_game_in_play": in_play / games,
        "redis_bytes_per_finished_game": finished / games,
        "redis_bytes_per_archived_game": archived / games,
        "archive_bytes_per_game": record / games,
        "archived_replay_vs_redis": archive_s / redis_s,
    }


async def _replay_time(bench: Bench, game_id: str, archive: DirectoryArchive | None) -> float:
    """Seconds per replay of the game's last version, through a fresh (uncached) reader
    (after one untimed replay: the first pays for the rules' and codecs' warm-up)."""
    total = 0.0
    for n in range(REPLAYS + 1):
        reads = bootstrap.archived_reads(
            bench.skald.store, bench.settings, archive or DirectoryArchive("/nonexistent")
        )
        history = bootstrap.history(bench.redis, bench.settings, reads)
        started = time.perf_counter()
        await history.replay(game_id, OPERATOR)
        total += time.perf_counter() - started if n else 0.0
    return total / REPLAYS


async def main(games: int) -> None:
    """Print the figures as JSON."""
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    redis = Redis.from_url(REDIS_URL_DEFAULT)
    figures = await archive_figures(redis, "fjords", games)
    await redis.aclose()
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    asyncio.run(main(parser.parse_args().games))
