"""Seeded bots for tests, demos and load tests: a player that picks uniformly among its legal
commands, and a picker of the seat that acts when several may."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from contracts.base import Command
from domain.chance import draw_below
from domain.engine import Game


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
