"""Benchmark of the Fjords engine: prints figures, asserts nothing (not collected by pytest).

    .venv/bin/python tests/bench/bench_fjords_engine.py [--games 20] [--players 4]

Figures, each a median over seeded random games (RandomBot), measured in this process:
- `legal_commands` late in Exploration (the first turn with at most 8 tiles left to place);
- a whole random game: setup, then every turn's legal_commands + decide + evolve;
- replaying that game (folding its events);
- the baseline: msgspec JSON encoding and decoding that game's events.
`engine_figures` gives the figures `skald bench` reports (replay against decoding alone).
Costs are also given as ratios to the baseline, which is what to compare across machines.
It also prints the average share of tiles placed by such games for 2, 3 and 4 players (the
provisional tile set is chosen to make it high).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import msgspec

from contracts.base import Event
from contracts.games.fjords import FjordsConfig, FjordsEvent
from domain.bots import RandomBot
from domain.chance import Chance
from domain.engine import decide, fold
from domain.games.fjords import GAME
from domain.games.fjords.state import FjordsState

LATE_EXPLORATION_TILES_LEFT = 8
EVENTS_DECODER = msgspec.json.Decoder(list[FjordsEvent])
ENCODER = msgspec.json.Encoder()


def timed(work: Callable[[], object], repeat: int = 1) -> float:
    """Seconds per call of `work`, the best of `repeat` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def play(players: int, seed: int) -> tuple[list[Event], FjordsState | None]:
    """One random game; also returns the state at the first late-Exploration turn."""
    events, late, _ = play_to_end(players, seed)
    return events, late


def play_to_end(players: int, seed: int) -> tuple[list[Event], FjordsState | None, FjordsState]:
    """One random game: its events, its first late-Exploration state and its final state."""
    chance = Chance(f"bench {seed}".encode())
    events = GAME.setup(FjordsConfig(players=players), chance)
    state = fold(GAME, events)
    bot = RandomBot(seed)
    late: FjordsState | None = None
    while acting := GAME.to_act(state):
        tiles_left = len(state.row) + len(state.bag)
        if (
            late is None
            and state.phase == "exploration"
            and tiles_left <= LATE_EXPLORATION_TILES_LEFT
        ):
            late = GAME.copy_state(state)
        command = bot.choose(GAME, state, acting[0])
        assert command is not None
        new = decide(GAME, state, command, acting[0], chance)
        state = fold(GAME, new, state)
        events += new
    return events, late, state


def share_placed(players: int, seed: int) -> float:
    """The share of the game's landscape tiles that ended up on the board."""
    _, _, final = play_to_end(players, seed)
    return (len(final.board) - len(GAME.tiles.starting)) / len(GAME.tiles.bag_for(players))


def engine_figures(games: int, players: int = 4) -> dict[str, float]:
    """The issue's rules-engine figures, medians over `games` seeded random games.

    `replay_vs_decode` compares folding a game's (already decoded) events with decoding the
    same events from their stored JSON alone: 1.0 means replay costs what decoding costs.
    """
    legal, whole, replay, decode, events_per_game = [], [], [], [], []
    for seed in range(games):
        whole.append(timed(lambda seed=seed: play(players, seed)))
        events, late = play(players, seed)
        assert late is not None
        seat = GAME.to_act(late)[0]
        legal.append(timed(lambda late=late, seat=seat: GAME.legal_commands(late, seat), 20))
        replay.append(timed(lambda events=events: fold(GAME, events), 5))
        encoded = ENCODER.encode(events)
        decode.append(timed(lambda encoded=encoded: EVENTS_DECODER.decode(encoded), 5))
        events_per_game.append(len(events))
    per_game = statistics.median(events_per_game)
    replay_per_s = per_game / statistics.median(replay)
    decode_per_s = per_game / statistics.median(decode)
    return {
        "legal_commands_late_ms": statistics.median(legal) * 1e3,
        "random_games_per_s": 1 / statistics.median(whole),
        "replay_events_per_s": replay_per_s,
        "decode_events_per_s": decode_per_s,
        "replay_vs_decode": replay_per_s / decode_per_s,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()

    legal, game, replay, baseline, counts = [], [], [], [], []
    for seed in range(args.games):
        game.append(timed(lambda seed=seed: play(args.players, seed)))
        events, late = play(args.players, seed)
        assert late is not None
        seat = GAME.to_act(late)[0]
        counts.append(len(GAME.legal_commands(late, seat)))
        legal.append(timed(lambda late=late, seat=seat: GAME.legal_commands(late, seat), 20))
        replay.append(timed(lambda events=events: fold(GAME, events), 5))
        baseline.append(
            timed(lambda events=events: EVENTS_DECODER.decode(ENCODER.encode(events)), 5)
        )

    base = statistics.median(baseline)
    print(f"Fjords engine, {args.players} players, median of {args.games} seeded random games")
    rows = [
        ("baseline: JSON encode+decode of a game's events", base),
        ("legal_commands, late Exploration", statistics.median(legal)),
        ("whole random game (bot turns)", statistics.median(game)),
        ("replay: fold a game's events", statistics.median(replay)),
    ]
    for name, seconds in rows:
        print(f"  {name:<50} {seconds * 1e3:9.3f} ms  {seconds / base:8.2f} x baseline")
    print(f"  legal commands listed late in Exploration (median): {statistics.median(counts)}")
    for players in (2, 3, 4):
        shares = [share_placed(players, seed) for seed in range(args.games)]
        print(
            f"  share of tiles placed, {players} players: mean {statistics.mean(shares):.3f}, "
            f"min {min(shares):.3f}"
        )


if __name__ == "__main__":
    main()
