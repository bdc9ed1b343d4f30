"""The Fjords game object: the protocol of domain/engine.py over this package's rules."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from contracts.base import Command, Event, GameConfig
from contracts.games.fjords import (
    RUNE_NAMES,
    DrawTile,
    FjordsCommand,
    FjordsConfig,
    FjordsEvent,
    FjordsView,
    Phase,
    PlaceTile,
    PlaceViking,
    UseHorseRune,
    UseJourneyRune,
    UseWisdomRune,
)
from contracts.outcome import Outcome
from domain.chance import Chance
from domain.errors import IllegalCommand
from domain.games.fjords import classic, exploration, moves, render, scoring, views
from domain.games.fjords.evolve import EVENT_HANDLERS, Recorder, evolve, fold
from domain.games.fjords.rune_moves import (
    check_travel,
    check_wisdom,
    discard_travel_rune,
    place_wisdom_rune,
)
from domain.games.fjords.settlement import check_viking, place_viking
from domain.games.fjords.state import FjordsState
from domain.games.fjords.tiles import TileSet, load_tile_set
from domain.games.fjords.variants import PRESETS, preset_config

# Changes with any rule that changes events or scores (2: the Water rune's coastline, decision
# 11 in this package's README), so a stored game is never scored under rules it was not played
# under; options (variants, rune stones) are recorded in each game's events instead.
RULES_EDITION = "fjords-2021.2"
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


class FjordsGame:
    """Fjords (Grail Games 2021) over a tile set: the shipped one, or a test's own."""

    name = "fjords"
    config_type: type[GameConfig] = FjordsConfig
    command_type: Any = FjordsCommand
    event_type: Any = FjordsEvent
    view_type: Any = FjordsView

    def __init__(self, tiles: TileSet) -> None:
        self.tiles = tiles
        # A new tile set changes the rules a stored game replays under.
        self.rules_version = f"{RULES_EDITION}/{tiles.name}"

    def example_configs(self) -> Sequence[GameConfig]:
        """The base game for 2, 3 and 4 players; each rune stone alone; every preset; all
        seven runes; Epic, Epic with all runes; Classic (a match of three games)."""
        every_rune = RUNE_NAMES
        return [
            *(FjordsConfig(players=n) for n in (2, 3, 4)),
            *(FjordsConfig(players=2 + i % 3, runes=(rune,)) for i, rune in enumerate(every_rune)),
            *(preset_config(number, players=2 + number % 3) for number in PRESETS),
            FjordsConfig(players=4, runes=every_rune),
            FjordsConfig(players=2, variant="epic"),
            FjordsConfig(players=2, variant="epic", runes=every_rune),
            FjordsConfig(players=2, variant="classic"),
        ]

    def setup(self, config: GameConfig, chance: Chance) -> list[Event]:
        """The opening events: players, starting tiles, row of 4, starting player."""
        if not isinstance(config, FjordsConfig):
            raise IllegalCommand("fjords.config.invalid", "Expected a Fjords config.")
        return exploration.setup(config, chance, self.tiles).events

    def decide(
        self, state: FjordsState, command: Command, seat: int, chance: Chance
    ) -> list[Event]:
        """The events of a legal command; IllegalCommand with a `fjords.` code otherwise.

        The seat is the one to act: `domain.engine.decide` has checked the turn rules."""
        tiles = self.tiles
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

    def evolve(self, state: FjordsState | None, event: Event) -> FjordsState:
        """Apply one event; never validates."""
        # Replay speed is fold speed: a started game's events go straight to their handler
        # (18 % faster folds in tests/bench/bench_fjords_engine.py than through `evolve`).
        apply = EVENT_HANDLERS.get(type(event))
        if apply is None or state is None:
            return evolve(state, event, self.tiles)
        apply(state, event)
        return state

    def fold(self, state: FjordsState | None, events: Iterable[Event]) -> FjordsState | None:
        """Apply events in order: what `evolve` does to each, without a call per event."""
        return fold(state, events, self.tiles)

    def copy_state(self, state: FjordsState) -> FjordsState:
        """An independent copy."""
        return state.copy()

    def legal_commands(self, state: FjordsState, seat: int) -> list[Command]:
        """Every legal command of the seat (see `moves`)."""
        return moves.legal_commands(state, seat, self.tiles)

    def to_act(self, state: FjordsState) -> list[int]:
        """The seat whose turn it is."""
        return views.to_act(state)

    def view(self, state: FjordsState, seat: int | None) -> FjordsView:
        """The table without the bag's content."""
        return views.view(state, seat, self.tiles)

    def outcome(self, state: FjordsState) -> Outcome | None:
        """Final scores once every seat is out (Classic: once the match's third game is)."""
        return scoring.outcome(state)

    def render_text(self, state: FjordsState) -> str:
        """A text drawing of the table."""
        return render.render_text(state, self.tiles)

    def candidate_commands(self, state: FjordsState, seat: int) -> list[Command]:
        """Legal and near-legal commands, for refusal tests."""
        return moves.candidate_commands(state, seat, self.tiles)

    def visible_event(self, event: Event, seat: int | None) -> Event | None:
        """Every Fjords event is a public fact: the row is face up and no event lists the bag."""
        return event

    def scramble_hidden(self, state: FjordsState, seat: int | None, chance: Chance) -> FjordsState:
        """A copy with other tiles in the bag."""
        return views.scramble_hidden(state, seat, chance, self.tiles)


def _check_phase(state: FjordsState, phase: Phase) -> None:
    """Refuse a command of the wrong phase."""
    if state.phase != phase:
        code, message = PHASE_REFUSALS[phase]
        raise IllegalCommand(code, message)


GAME = FjordsGame(load_tile_set())
