"""Sagas: completing face-up Sagas, refilling their spaces, Eras, the Final Round tokens.

Decision 11 in this package's README: after each command of the active player, every face-up
Saga whose goal holds goes to that player, in space order; then each emptied space is filled
from the deck, discarding cards whose goal already holds.
"""

from __future__ import annotations

from contracts.games.fire_and_axe import (
    EraBegan,
    FinalRoundTokensTaken,
    GameEnded,
    SagaCompleted,
    SagaDiscarded,
    SagaRevealed,
)
from domain.games.fire_and_axe.data import DATA
from domain.games.fire_and_axe.state import FireAndAxeState
from domain.games.fire_and_axe.tape import Tape


def fulfilled(state: FireAndAxeState, saga_id: int) -> bool:
    """Whether the Saga's goal holds: a good in, no town in, or a Settlement in each port."""
    saga = DATA.sagas[saga_id]
    if saga.kind == "trade":
        return all(port in state.port_goods for port in saga.ports)
    if saga.kind == "raid":
        return all(port not in state.towns for port in saga.ports)
    return all(port in state.settlements for port in saga.ports)


def complete_sagas(tape: Tape, seat: int) -> None:
    """Give the seat every fulfilled face-up Saga, refill the spaces, maybe end the game."""
    state = tape.state
    done = [
        (space, saga)
        for space, saga in enumerate(state.saga_spaces)
        if saga is not None and fulfilled(state, saga)
    ]
    if not done:
        return
    for space, saga in done:
        tape.emit(SagaCompleted(seat=seat, saga=saga, space=space, points=DATA.sagas[saga].points))
    for space, _ in done:
        refill(tape, space)
    if tape.state.final_holder is None and not tape.state.saga_deck:
        tape.emit(FinalRoundTokensTaken(seat=seat))
    if not tape.state.saga_deck and all(saga is None for saga in tape.state.saga_spaces):
        tape.emit(GameEnded(reason="last_saga"))


def refill(tape: Tape, space: int) -> None:
    """Flip Sagas into the space until one is not yet fulfilled (or the deck is empty)."""
    while tape.state.saga_deck:
        top = tape.state.saga_deck[0]
        if fulfilled(tape.state, top):
            tape.emit(SagaDiscarded(saga=top))
            continue
        era = DATA.sagas[top].era
        if era > tape.state.era:
            tape.emit(EraBegan(era=era))
        tape.emit(SagaRevealed(saga=top, space=space))
        return
