"""Events being decided, applied to a scratch copy as they are emitted (a `Recorder`).

A command's later rules see what its earlier events did (a Saga checked after a Settlement,
a turn passed after a wreck), and the state the caller holds is never changed.
"""

from __future__ import annotations

from domain.chance import Chance
from domain.games.fire_and_axe.evolve import evolve
from domain.games.fire_and_axe.state import FireAndAxeState, Turn
from domain.kernel.recorder import Recorder


class Tape(Recorder[FireAndAxeState]):
    """The events of one decision, the state they lead to, and the chance they draw from."""

    def __init__(self, state: FireAndAxeState, chance: Chance) -> None:
        super().__init__(state.copy(), evolve)
        self.chance = chance
        self._next_draw = state.draws

    def draw(self, n: int) -> tuple[int, int]:
        """The next numbered draw, uniform in range(n): (value, draw index).

        The event recording it moves the state's counter; several draws may precede it.
        """
        index = max(self._next_draw, self.state.draws)
        self._next_draw = index + 1
        return self.chance.below(index, n), index

    @property
    def turn(self) -> Turn:
        """The turn under way."""
        assert self.state.turn is not None, "no turn while the game is over"
        return self.state.turn
