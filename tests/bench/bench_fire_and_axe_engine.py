"""Benchmark of the Fire & Axe engine: prints figures, asserts nothing (not collected by pytest).

    .venv/bin/python tests/bench/bench_fire_and_axe_engine.py [--games 20] [--players 4]

Figures, each a median over seeded random games (RandomBot) with the default config, measured
in this process:
- `legal_commands` in the middle of a game (its 100th command);
- a whole random game: setup, then every command's legal_commands + decide + evolve;
- replaying that game (folding its events);
- the baseline: msgspec JSON encoding and decoding that game's events.
Costs are also given as ratios to the baseline, which is what to compare across machines.
It also reports how long random games last (commands, turns, rounds) and how they end: random
bots seldom complete Sagas, so most end at the round limit (decision E1 in the game's README).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Callable

import msgspec

from contracts.base import Event
from contracts.games.fire_and_axe import (
    FireAndAxeConfig,
    FireAndAxeEvent,
    GameEnded,
    SagaCompleted,
    TurnBegan,
)
from domain.bots import RandomBot
from domain.chance import Chance
from domain.engine import fold
from domain.games.fire_and_axe import GAME
from domain.games.fire_and_axe.state import FireAndAxeState

MID_GAME_COMMAND = 100
EVENTS_DECODER = msgspec.json.Decoder(list[FireAndAxeEvent])
ENCODER = msgspec.json.Encoder()


def timed(work: Callable[[], object], repeat: int = 1) -> float:
    """Seconds per call of `work`, the best of `repeat` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def play(players: int, seed: int) -> tuple[list[Event], FireAndAxeState | None, int]:
    """One random game: its events, its state at the 100th command, its command count."""
    chance = Chance(f"bench {seed}".encode())
    events = GAME.setup(FireAndAxeConfig(players=players), chance)
    state = fold(GAME, events)
    bot = RandomBot(seed)
    middle: FireAndAxeState | None = None
    commands = 0
    while acting := GAME.to_act(state):
        if commands == MID_GAME_COMMAND:
            middle = GAME.copy_state(state)
        command = bot.choose(GAME, state, acting[0])
        assert command is not None
        new = GAME.decide(state, command, acting[0], chance)
        state = fold(GAME, new, state)
        events += new
        commands += 1
    return events, middle, commands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()

    legal, game, replay, baseline = [], [], [], []
    commands, turns, rounds, sagas = [], [], [], []
    endings: Counter[str] = Counter()
    for seed in range(args.games):
        game.append(timed(lambda seed=seed: play(args.players, seed)))
        events, middle, count = play(args.players, seed)
        assert middle is not None
        seat = GAME.to_act(middle)[0]
        legal.append(timed(lambda s=middle, seat=seat: GAME.legal_commands(s, seat), 20))
        replay.append(timed(lambda events=events: fold(GAME, events), 5))
        baseline.append(
            timed(lambda events=events: EVENTS_DECODER.decode(ENCODER.encode(events)), 5)
        )
        commands.append(count)
        turns.append(sum(1 for event in events if isinstance(event, TurnBegan)))
        rounds.append(fold(GAME, events).round)
        sagas.append(sum(1 for event in events if isinstance(event, SagaCompleted)))
        endings.update(event.reason for event in events if isinstance(event, GameEnded))

    base = statistics.median(baseline)
    print(f"Fire & Axe engine, {args.players} players, median of {args.games} random games")
    rows = [
        ("baseline: JSON encode+decode of a game's events", base),
        ("legal_commands, mid-game (100th command)", statistics.median(legal)),
        ("whole random game (bot turns)", statistics.median(game)),
        ("replay: fold a game's events", statistics.median(replay)),
    ]
    for name, seconds in rows:
        print(f"  {name:<50} {seconds * 1e3:9.3f} ms  {seconds / base:8.2f} x baseline")
    print(
        f"  length: median {statistics.median(commands)} commands, "
        f"{statistics.median(turns)} turns, {statistics.median(rounds)} rounds "
        f"(max {max(rounds)}); Sagas completed per game: median {statistics.median(sagas)}"
    )
    print(f"  how the games ended: {dict(sorted(endings.items()))}")


if __name__ == "__main__":
    main()
