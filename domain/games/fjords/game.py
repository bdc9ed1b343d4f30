"""The Fjords game object: the protocol of domain/engine.py over this package's rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from contracts.base import Command, Event, GameConfig
from contracts.games.fjords import (
    FjordsCommand,
    FjordsConfig,
    FjordsEvent,
    FjordsView,
    PlaceTile,
    PlaceViking,
)
from contracts.outcome import Outcome
from domain.chance import Chance
from domain.errors import IllegalCommand
from domain.games.fjords import moves, render, scoring, views
from domain.games.fjords.evolve import Recorder, evolve
from domain.games.fjords.exploration import check_place_tile, place_tile, setup
from domain.games.fjords.settlement import check_viking, place_viking
from domain.games.fjords.state import FjordsState
from domain.games.fjords.tiles import TileSet, load_tile_set

RULES_EDITION = "fjords-2021.1"


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
        """The base game for 2, 3 and 4 players."""
        return [FjordsConfig(players=n) for n in (2, 3, 4)]

    def setup(self, config: GameConfig, chance: Chance) -> list[Event]:
        """The opening events: players, starting tiles, row of 4, starting player."""
        if not isinstance(config, FjordsConfig):
            raise IllegalCommand("fjords.config.invalid", "Expected a Fjords config.")
        return setup(config, chance, self.tiles).events

    def decide(
        self, state: FjordsState, command: Command, seat: int, chance: Chance
    ) -> list[Event]:
        """The events of a legal command; IllegalCommand with a `fjords.` code otherwise."""
        if state.phase == "ended":
            raise IllegalCommand("fjords.game.over", "The game is over.")
        if not 0 <= seat < state.players:
            raise IllegalCommand("fjords.seat.unknown", f"There is no seat {seat}.", seat=seat)
        match command:
            case PlaceTile():
                if state.phase != "exploration":
                    raise IllegalCommand(
                        "fjords.phase.not_exploration",
                        "Tiles are only placed in the Exploration Phase; it is over.",
                    )
                _check_turn(state, seat)
                check_place_tile(state, command, seat, self.tiles)
                record = Recorder(state.copy(), self.tiles)
                place_tile(record, command, seat, chance, self.tiles)
            case PlaceViking():
                if state.phase != "settlement":
                    raise IllegalCommand(
                        "fjords.phase.not_settlement",
                        "Vikings are placed in the Settlement Phase, after Exploration.",
                    )
                _check_turn(state, seat)
                check_viking(state, command, seat)
                record = Recorder(state.copy(), self.tiles)
                place_viking(record, command, seat)
            case _:
                raise IllegalCommand(
                    "fjords.command.unknown",
                    f"Fjords has no command {type(command).__name__}.",
                )
        return record.events

    def evolve(self, state: FjordsState | None, event: Event) -> FjordsState:
        """Apply one event; never validates."""
        return evolve(state, event, self.tiles)

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
        """Final scores once every seat is out."""
        return scoring.outcome(state)

    def render_text(self, state: FjordsState) -> str:
        """A text drawing of the table."""
        return render.render_text(state, self.tiles)

    def candidate_commands(self, state: FjordsState, seat: int) -> list[Command]:
        """Legal and near-legal commands, for refusal tests."""
        return moves.candidate_commands(state, seat, self.tiles)

    def scramble_hidden(self, state: FjordsState, seat: int | None, chance: Chance) -> FjordsState:
        """A copy with other tiles in the bag."""
        return views.scramble_hidden(state, seat, chance, self.tiles)


def _check_turn(state: FjordsState, seat: int) -> None:
    if seat != state.active:
        raise IllegalCommand(
            "fjords.turn.not_your_turn",
            f"It is seat {state.active}'s turn, not yours.",
            seat=seat,
            active=state.active,
        )


GAME = FjordsGame(load_tile_set())
