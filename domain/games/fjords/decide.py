"""Checking a Fjords command against the rules and turning it into events.

The only place that validates. Whose turn it is and whether the game is over are checked before
this for every game (`domain.engine.decide`); here each command is checked against its phase,
then against its own rules, all before anything is emitted. The events are then emitted into a
working copy of the state (`evolve.Recorder`), so later steps of the same command (the refill,
the redraw, who is out, a Classic match's next game) read the state as the fold will have it.
"""

from __future__ import annotations

from contracts.base import Command, Event
from contracts.games.fjords import (
    DrawTile,
    Phase,
    PlaceTile,
    PlaceViking,
    UseHorseRune,
    UseJourneyRune,
    UseWisdomRune,
)
from domain.chance import Chance
from domain.errors import IllegalCommand
from domain.games.fjords import classic, exploration
from domain.games.fjords.evolve import Recorder
from domain.games.fjords.rune_moves import (
    check_travel,
    check_wisdom,
    discard_travel_rune,
    place_wisdom_rune,
)
from domain.games.fjords.settlement import check_viking, place_viking
from domain.games.fjords.state import FjordsState
from domain.games.fjords.tiles import TileSet

PHASE_REFUSALS = {
    "exploration": (
        "fjords.phase.not_exploration",
        "Tiles are only placed in the Exploration Phase; it is over.",
    ),
    "settlement": (
        "fjords.phase.not_settlement",
        "Vikings are placed in the Settlement Phase, after Exploration.",
    ),
}


def decide(
    state: FjordsState, command: Command, seat: int, chance: Chance, tiles: TileSet
) -> list[Event]:
    """The events of a legal command of `seat` (the seat to act); IllegalCommand with a
    `fjords.` code otherwise."""
    # Each case checks everything first, then emits into a working copy of the state.
    match command:
        case PlaceTile():
            _check_phase(state, "exploration")
            longhouse = exploration.check_place_tile(state, command, seat, tiles)
            record = Recorder(state.copy(), tiles)
            if state.variant == "classic":
                classic.place_tile(record, command, seat, longhouse, tiles)
            else:
                exploration.place_tile(record, command, seat, longhouse, chance, tiles)
        case DrawTile():
            classic.check_classic(state)
            _check_phase(state, "exploration")
            classic.check_nothing_drawn(state)
            record = Recorder(state.copy(), tiles)
            classic.draw_to_place(record, seat, chance, tiles)
        case PlaceViking():
            _check_phase(state, "settlement")
            colour = check_viking(state, command, seat)
            record = Recorder(state.copy(), tiles)
            place_viking(record, (command.q, command.r), seat, colour)
        case UseJourneyRune() | UseHorseRune():
            _check_phase(state, "settlement")
            colour = check_travel(state, command, seat)
            record = Recorder(state.copy(), tiles)
            discard_travel_rune(record, command, seat)
            place_viking(record, (command.q, command.r), seat, colour)
        case UseWisdomRune():
            _check_phase(state, "settlement")
            colour = check_wisdom(state, command, seat)
            record = Recorder(state.copy(), tiles)
            place_wisdom_rune(record, command, seat)
            place_viking(record, (command.q, command.r), seat, colour)
        case _:
            raise IllegalCommand(
                "fjords.command.unknown",
                f"Fjords has no command {type(command).__name__}.",
            )
    classic.continue_match(record, chance, tiles)
    return record.events


def _check_phase(state: FjordsState, phase: Phase) -> None:
    """Refuse a command of the wrong phase."""
    if state.phase != phase:
        code, message = PHASE_REFUSALS[phase]
        raise IllegalCommand(code, message)
