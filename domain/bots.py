"""A seeded bot that picks uniformly among the legal commands (tests, demos, load tests)."""

from __future__ import annotations

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
