"""Seeded bots for tests, demos, load tests and stand-in seats: a player that picks uniformly
among its legal commands, one that is greedy on its immediate score (each game supplies the
score, see its `greedy` module), and a picker of the seat that acts when several may."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from contracts.base import Command
from domain.chance import Chance, draw_below
from domain.engine import Game
from domain.errors import IllegalCommand


class RandomBot:
    """Picks a legal command uniformly at random; the same seed picks the same moves."""

    def __init__(self, seed: int | bytes) -> None:
        self._seed = seed if isinstance(seed, bytes) else seed.to_bytes(16, "big", signed=True)
        self._picks = 0

    def choose(self, game: Game, state: Any, seat: int) -> Command | None:
        """A uniformly chosen legal command for `seat`, or None when it has none."""
        options = game.legal_commands(state, seat)
        if not options:
            return None
        index = draw_below(self._seed, self._picks, len(options))
        self._picks += 1
        return options[index]


class SeatPicker:
    """Picks which seat acts when the game waits for several at once (a trade offer, an
    Althing window): seeded, so the same seed plays the same game. A lone seat costs no draw,
    so games where one seat acts at a time play as if there were no picker."""

    def __init__(self, seed: int | bytes) -> None:
        self._seed = seed if isinstance(seed, bytes) else seed.to_bytes(16, "big", signed=True)
        self._picks = 0

    def pick(self, seats: Sequence[int]) -> int:
        """One of `seats` (which must not be empty)."""
        ordered = sorted(seats)
        if len(ordered) == 1:
            return ordered[0]
        index = draw_below(self._seed, self._picks, len(ordered))
        self._picks += 1
        return ordered[index]


Score = tuple[int, ...]
ScoreOf = Callable[[Any, int], Score]
WorldOf = Callable[[Any, int, Chance], Any]
CANDIDATE_CAP = 24  # legal commands a greedy bot weighs at most (a seeded sample beyond)


def as_seen(state: Any, seat: int, chance: Chance) -> Any:
    """The world a bot may plan in when the immediate score never depends on what the seat
    cannot see (each game's README says why): the state itself."""
    del seat, chance
    return state


class GreedyBot:
    """Picks the legal command that maximises the seat's immediate score.

    Each candidate is decided and folded on a copy of the world the seat may plan in (the
    game's `world`: the state itself, or a copy whose hidden information was re-dealt by the
    bot's own draws), and the seat's `score` read after it. Everything the bot draws comes
    from its own seed, never the game's: decide's draws on the copy foretell nothing. Ties
    are broken by a seeded draw, and beyond `cap` legal commands a seeded sample of `cap` is
    weighed (every kind of command in it), so a move costs at most `cap` decides.
    """

    def __init__(
        self,
        seed: int | bytes,
        score: ScoreOf,
        world: WorldOf = as_seen,
        cap: int = CANDIDATE_CAP,
    ) -> None:
        self._seed = seed if isinstance(seed, bytes) else seed.to_bytes(16, "big", signed=True)
        self._score = score
        self._world = world
        self._cap = cap
        self._picks = 0

    def _draw(self, n: int) -> int:
        index = draw_below(self._seed, self._picks, n)
        self._picks += 1
        return index

    def _sample(self, options: list[Command]) -> list[Command]:
        """At most `cap` of the options (all when fewer), drawn without replacement in turns
        over the kinds of command, so a kind with few commands (a build among hundreds of
        trade offers) is always weighed."""
        if len(options) <= self._cap:
            return options
        kinds: dict[type, list[Command]] = {}
        for command in options:
            kinds.setdefault(type(command), []).append(command)
        pools = list(kinds.values())
        chosen: list[Command] = []
        while len(chosen) < self._cap:
            for pool in pools:
                if pool and len(chosen) < self._cap:
                    chosen.append(pool.pop(self._draw(len(pool))))
        return chosen

    def choose(self, game: Game, state: Any, seat: int) -> Command | None:
        """The best legal command for `seat` by its immediate score, or None when it has none."""
        options = game.legal_commands(state, seat)
        if not options:
            return None
        candidates = self._sample(options)
        plan = hashlib.sha256(self._seed + b"plan" + self._picks.to_bytes(8, "big"))
        planner = Chance(plan.digest())
        world = self._world(state, seat, planner)
        best: list[Command] = []
        best_score: Score | None = None
        for command in candidates:
            try:
                events = game.decide(world, command, seat, planner)
            except IllegalCommand:  # legal in the state, not in the re-dealt world
                continue
            after = game.copy_state(world)
            for event in events:
                after = game.evolve(after, event)
            score = self._score(after, seat)
            if best_score is None or score > best_score:
                best, best_score = [command], score
            elif score == best_score:
                best.append(command)
        if not best:
            best = candidates
        return best[self._draw(len(best))]
