"""Figures of replay, audit, fairness and verification of one finished game.

    .venv/bin/python -m tests.bench.bench_history [--repeat N]

Each operation is timed on a finished game held in the in-memory store (so storage round trips
do not blur the figure) and printed as a ratio against the baseline measured in the same
process: decoding the game's stored events and folding them once, the least any replay does.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import structlog

from domain.engine import fold
from domain.games import game_names, get_game
from domain.table import is_service_event
from service.core.codec import codec_for
from service.history.audit import audit_version
from service.history.disclosure import SPECTATOR
from service.history.fairness import fairness_report
from service.history.loading import read_game
from service.history.record import decode_history
from service.history.replay import replay_frame
from service.history.verify import verify_game
from tests.fakes.memory_store import InMemoryEventStore
from tests.unit.history.playthrough import play_through_store, seed_of


async def best_of(repeat: int, operation: Callable[[], Awaitable[Any]]) -> float:
    """The fastest of `repeat` runs, in seconds (the least disturbed by the machine)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        await operation()
        best = min(best, time.perf_counter() - started)
    return best


async def bench_game(name: str, repeat: int) -> None:
    """Print each operation's time on one finished game of `name`, and its ratio."""
    store = InMemoryEventStore()
    game = get_game(name)
    played = await play_through_store(store, game, game.example_configs()[0], seed_of(1), "g")
    stored = await read_game(store, "g")
    codec = codec_for(name)

    async def baseline() -> Any:
        events = [codec.decode_event(event.data) for event in stored.events]
        return fold(game, (event for event in events if not is_service_event(event)))

    async def load() -> Any:
        return decode_history(await read_game(store, "g"))

    async def replay() -> Any:
        return replay_frame(await load(), SPECTATOR)

    async def audit() -> Any:
        return audit_version(await load(), played.last_version // 2, SPECTATOR)

    async def fairness() -> Any:
        return fairness_report(await load())

    async def verify() -> Any:
        return await verify_game(store, "g")

    base = await best_of(repeat, baseline)
    print(f"{name}: {played.last_version} events, {len(played.sent)} commands")
    print(f"  {'decode + fold (baseline)':<28} {base * 1000:8.2f} ms   1.00x")
    for label, operation in [
        ("load history", load),
        ("replay at the end", replay),
        ("audit a mid-game move", audit),
        ("fairness (every draw)", fairness),
        ("verify (every check)", verify),
    ]:
        took = await best_of(repeat, operation)
        print(f"  {label:<28} {took * 1000:8.2f} ms {took / base:6.2f}x")


async def main(repeat: int) -> None:
    """Bench every built-in game."""
    for name in game_names():
        await bench_game(name, repeat)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=20, help="runs per figure (best kept)")
    arguments = parser.parse_args()
    # The drain logs each batch; figures are the output here.
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    asyncio.run(main(arguments.repeat))
