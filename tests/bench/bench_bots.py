"""What a stand-in bot's move costs: each game's greedy bot (`game.greedy_bot`), timed on
every move of its seat in seeded games against random seats.

    .venv/bin/python -m tests.bench.bench_bots

`greedy_move_ms` per game: the median and the slowest move, over all of a greedy seat's moves,
and `greedy_move_late_looot_ms`: the median over the last ten moves of the greedy seat in
Looot games (the late game, where the most commands are legal).
"""

from __future__ import annotations

import hashlib
import json
import statistics
import sys
import time
from typing import Any

from domain.bots import RandomBot, SeatPicker
from domain.chance import Chance
from domain.engine import decide, fold
from domain.games import game_names, get_game

LATE_MOVES = 10


def greedy_times(name: str, seed: int) -> list[float]:
    """Milliseconds of each move of seat 0 (greedy) in one seeded game of `name`."""
    game = get_game(name)
    config = game.example_configs()[0]
    chance = Chance(seed.to_bytes(32, "big"))
    state = fold(game, game.setup(config, chance))
    randoms = {seat: RandomBot(seed * 100 + seat) for seat in range(config.players)}
    picker = SeatPicker(seed)
    times: list[float] = []
    for move in range(20_000):
        seats = game.to_act(state)
        if not seats:
            break
        seat = picker.pick(seats)
        if seat == 0:
            started = time.perf_counter()
            bot = game.greedy_bot(hashlib.sha256(bytes([seed]) + move.to_bytes(8, "big")).digest())
            command = bot.choose(game, state, seat)
            times.append((time.perf_counter() - started) * 1000)
        else:
            command = randoms[seat].choose(game, state, seat)
        assert command is not None
        for event in decide(game, state, command, seat, chance):
            state = game.evolve(state, event)
    return times


def bot_figures(games: int) -> dict[str, Any]:
    """The greedy bots' move times (see the module docstring)."""
    per_game: dict[str, dict[str, float]] = {}
    late: list[float] = []
    for name in game_names():
        if name == "race":
            continue
        times: list[float] = []
        for seed in range(games):
            played = greedy_times(name, seed)
            times += played
            if name == "looot":
                late += played[-LATE_MOVES:]
        per_game[name] = {
            "median_ms": round(statistics.median(times), 3),
            "max_ms": round(max(times), 3),
        }
    return {"greedy_move_ms": per_game, "greedy_move_late_looot_ms": statistics.median(late)}


if __name__ == "__main__":
    print(json.dumps(bot_figures(int(sys.argv[1]) if len(sys.argv) > 1 else 5), indent=2))
