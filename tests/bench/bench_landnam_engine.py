"""Benchmark of Landnám games: prints figures, asserts nothing (not collected by pytest).

    .venv/bin/python tests/bench/bench_landnam_engine.py [--games 50] [--max-rounds 60]

For 3, 4 and 5 players, seeded games are played in this process by two kinds of bots:
`random` (domain.bots.RandomBot, uniform among the legal commands) and `builder` (a simple
player that builds when it can, sues and defends with every card, explores, trades with the
stock, and otherwise picks at random). When several seats may act, a seeded SeatPicker picks
one. Printed per player count and bot: turns and rounds per game (median and 95th
percentile), the share of games ended by the round limit (decision 24 in the game's README)
rather than by 12 points, commands per game, milliseconds per game, the share of harvests
ending in famine, the share of games in which white, red and black tokens were awarded, and
the terrain stack that ran out in the most games, with the share of games.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from dataclasses import dataclass

from contracts.base import Command
from contracts.games.landnam import Famine, HarvestPaid, LandnamConfig
from domain.bots import RandomBot, SeatPicker
from domain.chance import Chance, draw_below
from domain.engine import fold
from domain.games.landnam import GAME
from domain.games.landnam.state import LandnamState

# The builder's preferences, best first; commands of other types come last, at random.
PREFERRED = (
    ("BuildFarm", "BuildTown"),
    ("BuildSettler", "BuildHarbour"),
    ("BuildShip",),
    ("TryCase", "AddCards", "JoinSide"),
    ("TradeWithStock",),
    ("Step",),
    ("AcceptTrade",),
)
AVOIDED = ("OfferTrade", "WithdrawOffer", "AgeNumber")


class BuilderBot:
    """Builds, sues and explores when it can; otherwise picks at random."""

    def __init__(self, seed: int) -> None:
        self._seed = seed.to_bytes(16, "big", signed=True)
        self._picks = 0

    def _pick(self, options: list[Command]) -> Command:
        index = draw_below(self._seed, self._picks, len(options))
        self._picks += 1
        return options[index]

    def choose(self, state: LandnamState, seat: int) -> Command:
        """The preferred legal command."""
        legal = GAME.legal_commands(state, seat)
        for kinds in PREFERRED:
            options = [c for c in legal if type(c).__name__ in kinds]
            if options:
                return self._pick(options)
        calm = [c for c in legal if type(c).__name__ not in AVOIDED]
        return self._pick(calm or legal)


@dataclass
class Played:
    """What one game did."""

    turns: int
    rounds: float
    capped: bool
    commands: int
    seconds: float
    harvests: int
    famines: int
    white: bool
    red: bool
    black: bool
    emptied: frozenset[str]  # the terrain stacks that ran out


def play(players: int, seed: int, bot_kind: str, max_rounds: int) -> Played:
    """One seeded game to its end."""
    chance = Chance(f"landnam bench {seed}".encode())
    start = time.perf_counter()
    events = GAME.setup(LandnamConfig(players=players, max_rounds=max_rounds), chance)
    state = fold(GAME, events)
    randoms = {seat: RandomBot(seed * 10 + seat) for seat in range(players)}
    builders = {seat: BuilderBot(seed * 10 + seat) for seat in range(players)}
    picker = SeatPicker(seed)
    commands = harvests = famines = 0
    while seats := GAME.to_act(state):
        seat = picker.pick(seats)
        if bot_kind == "random":
            command = randoms[seat].choose(GAME, state, seat)
            assert command is not None
        else:
            command = builders[seat].choose(state, seat)
        new = GAME.decide(state, command, seat, chance)
        harvests += sum(1 for e in new if isinstance(e, HarvestPaid | Famine))
        famines += sum(1 for e in new if isinstance(e, Famine))
        state = fold(GAME, new, state)
        commands += 1
    seconds = time.perf_counter() - start
    outcome = GAME.outcome(state)
    assert outcome is not None
    return Played(
        turns=state.turns_played,
        rounds=state.turns_played / players,
        capped=max(score.total for score in outcome.scores) < 12,
        commands=commands,
        seconds=seconds,
        harvests=harvests,
        famines=famines,
        white=any(p.white for p in state.players),
        red=any(p.red for p in state.players),
        black=any(p.black for p in state.players),
        emptied=frozenset(t for t, count in state.terrain_stock.items() if count == 0),
    )


def most_emptied(games: list[Played]) -> str:
    """The terrain stack that ran out in the most games, and in what share of them."""
    counts = Counter(terrain for game in games for terrain in game.emptied)
    if not counts:
        return "none"
    terrain, count = counts.most_common(1)[0]
    return f"{terrain} {100 * count / len(games):.0f}%"


def p95(values: list[float]) -> float:
    """The 95th percentile."""
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--max-rounds", type=int, default=60)
    args = parser.parse_args()
    print(f"{args.games} games per row, round limit {args.max_rounds}")
    header = (
        "players bot      turns(med/p95) rounds(med/p95) capped  commands  ms/game  "
        "famine  white  red   black stack"
    )
    print(header)
    for players in (3, 4, 5):
        for bot_kind in ("random", "builder"):
            games = [play(players, seed, bot_kind, args.max_rounds) for seed in range(args.games)]
            turns = [float(g.turns) for g in games]
            rounds = [g.rounds for g in games]
            harvests = sum(g.harvests for g in games)

            def share(flags: list[bool]) -> str:
                return f"{100 * sum(flags) / len(flags):4.0f}%"

            print(
                f"{players:7} {bot_kind:8} {statistics.median(turns):6.0f}/{p95(turns):<7.0f} "
                f"{statistics.median(rounds):6.1f}/{p95(rounds):<8.1f} "
                f"{share([g.capped for g in games])} "
                f"{statistics.median([g.commands for g in games]):8.0f} "
                f"{1e3 * statistics.median([g.seconds for g in games]):8.0f} "
                f"{100 * sum(g.famines for g in games) / max(harvests, 1):5.1f}% "
                f"{share([g.white for g in games])} {share([g.red for g in games])} "
                f"{share([g.black for g in games])} {most_emptied(games)}"
            )


if __name__ == "__main__":
    main()
