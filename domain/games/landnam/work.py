"""The scratch state a command's events are produced on: each event is applied as it is
emitted, so the rules that follow see its effect, and each random draw is numbered."""

from __future__ import annotations

from contracts.base import Event
from contracts.games.landnam import FateDrawn, FateKind
from domain.chance import Chance
from domain.games.landnam.evolve import evolve
from domain.games.landnam.state import LandnamState


class Work:
    """Events in the making, on a copy of the state."""

    def __init__(self, state: LandnamState, chance: Chance) -> None:
        self.state = state.copy()
        self.chance = chance
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        """Record an event and apply it to the scratch state."""
        self.events.append(event)
        evolve(self.state, event)

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
