"""Live stream figures: bytes a seat's stream sends per move late in a Looot game, against the
size of the whole view it would otherwise receive each time.

    .venv/bin/python -m tests.bench.bench_stream [--games N]

A Looot game is played to its end by seeded bots through the facade, on the real Redis, with
an in-process drainer; a `LiveFeed` for seat 0 catches up after every move, as the stream does
when notified. The figure counts every byte of each SSE message (id, event and data lines):
the events of the move and the view patch. "Late" is the second half of the game's moves,
where the board is full and the whole view largest.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import uuid
from typing import Any

import msgspec
import structlog
from redis.asyncio import Redis

from domain.games import get_game
from service.facade.live import LiveFeed, LiveMessage
from tests.bench.bench_pipeline import Bench
from tests.fakes.players import play_through_service

REDIS_URL_DEFAULT = "redis://127.0.0.1:6379/0"
GAME = "looot"
FOLLOWED_SEAT = 0


def sse_bytes(message: LiveMessage) -> int:
    """The bytes of a message on the wire (single-line JSON data, as the stream sends it)."""
    return len(
        b"id: %d\nevent: %s\ndata: %s\n\n" % (message.version, message.kind.encode(), message.data)
    )


async def stream_figures(redis: Redis, games: int) -> dict[str, float]:
    """Stream bytes per late move, the whole view's bytes then, and their ratio."""
    bench = Bench(redis, 64)
    config = msgspec.to_builtins(get_game(GAME).example_configs()[0])
    late_stream = late_views = late_moves = 0
    try:
        for n in range(games):
            game_id = (await bench.skald.commands.create_game(GAME, config)).game_id
            feed = LiveFeed(bench.skald.reads, game_id, FOLLOWED_SEAT)
            await feed.catch_up()
            per_move: list[tuple[int, int]] = []  # (stream bytes, whole view bytes)

            async def settle(
                command_id: str,
                game_id: str = game_id,
                feed: LiveFeed = feed,
                per_move: list[tuple[int, int]] = per_move,
            ) -> Any:
                await bench.run_jobs()
                sent = sum(sse_bytes(message) for message in await feed.catch_up())
                _, view = await bench.skald.reads.view(game_id, FOLLOWED_SEAT)
                per_move.append((sent, len(view)))
                return await bench.skald.commands.outcome(game_id, command_id)

            seeds = [1000 * n + seat for seat in range(config["players"])]
            await play_through_service(bench.skald, game_id, seeds, settle, str(uuid.uuid4()))
            late = per_move[len(per_move) // 2 :]
            late_stream += sum(sent for sent, _ in late)
            late_views += sum(view for _, view in late)
            late_moves += len(late)
    finally:
        await bench.clean()
    return {
        "stream_bytes_per_move": late_stream / late_moves,
        "view_bytes_late": late_views / late_moves,
        "stream_vs_view": late_stream / late_views,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--redis-url", default=REDIS_URL_DEFAULT)
    args = parser.parse_args()
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

    async def run() -> dict[str, float]:
        redis = Redis.from_url(args.redis_url)
        try:
            return await stream_figures(redis, args.games)
        finally:
            await redis.aclose()

    print(json.dumps(asyncio.run(run()), indent=2))


if __name__ == "__main__":
    main()
