"""The scratch state a command's events are produced on (a `Recorder`: each event is applied
as it is emitted, so the rules that follow see its effect), and Landnám's numbered draws."""

from __future__ import annotations

from contracts.games.landnam import FateDrawn, FateKind
from domain.chance import Chance
from domain.games.landnam.evolve import evolve
from domain.games.landnam.state import LandnamState
from domain.kernel.recorder import Recorder


class Work(Recorder[LandnamState]):
    """Events in the making, on a copy of the state, and the chance they draw from."""

    def __init__(self, state: LandnamState, chance: Chance) -> None:
        super().__init__(state.copy(), evolve)
        self.chance = chance

    def roll(self, sides: int, index: int) -> int:
        """Draw number `index`: a die of `sides` faces (1 .. sides)."""
        return 1 + self.chance.below(index, sides)

    def draw_fate(self, seat: int, among: tuple[FateKind, ...] | None = None) -> None:
        """Decision 16: the seat draws a fate card (one of `among` when given); the discard
        pile is reshuffled into an empty deck; nothing happens when both are empty."""
        state = self.state
        reshuffled = False
        deck = state.deck
        if among is None and not deck:
            if not state.discards:
                return
            reshuffled = True
            deck = sorted(state.discards)
        pool = deck if among is None else [card for card in deck if card in among]
        if not pool:
            return
        index = state.draws
        card = pool[self.chance.below(index, len(pool))]
        self.emit(FateDrawn(seat=seat, card=card, draw=index, reshuffled=reshuffled))
