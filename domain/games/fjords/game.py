"""The Fjords game object: the protocol of domain/engine.py over this package's rules."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from contracts.base import Command, Event, GameConfig
from contracts.games.fjords import (
    RUNE_NAMES,
    FjordsCommand,
    FjordsConfig,
    FjordsEvent,
    FjordsView,
)
from contracts.outcome import Outcome
from domain.bots import GreedyBot
from domain.chance import Chance
from domain.games.fjords import decide as rules
from domain.games.fjords import legal, render, scoring, views
from domain.games.fjords import setup as opening
from domain.games.fjords.evolve import EVENT_HANDLERS, evolve, fold
from domain.games.fjords.greedy import greedy_bot
from domain.games.fjords.state import FjordsState
from domain.games.fjords.tiles import TileSet, load_tile_set
from domain.games.fjords.variants import PRESETS, preset_config

# Changes with any rule that changes events or scores (2: the Water rune's coastline, decision
# 11 in this package's README), so a stored game is never scored under rules it was not played
# under; options (variants, rune stones) are recorded in each game's events instead.
RULES_EDITION = "fjords-2021.2"


class FjordsGame:
    """Fjords (Grail Games 2021) over a tile set: the shipped one, or a test's own."""

    name = "fjords"
    config_type: type[GameConfig] = FjordsConfig
    command_type: Any = FjordsCommand
    event_type: Any = FjordsEvent
    view_type: Any = FjordsView
    # No passing: every Exploration and Settlement turn places a piece (or a rune).
    may_pass: bool = False

    def __init__(self, tiles: TileSet) -> None:
        self.tiles = tiles
        # A new tile set changes the rules a stored game replays under.
        self.rules_version = f"{RULES_EDITION}/{tiles.name}"

    def rating_variant(self, config: Mapping[str, object]) -> str:
        """`base`, `epic` or `classic`: rune stones are not a variant (they are many small
        modules, and a pool for each combination would leave every pool empty)."""
        return str(config.get("variant", "base"))

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
        return opening.setup(config, chance, self.tiles)

    def decide(
        self, state: FjordsState, command: Command, seat: int, chance: Chance
    ) -> list[Event]:
        """The events of a legal command; IllegalCommand with a `fjords.` code otherwise.

        The seat is the one to act: `domain.engine.decide` has checked the turn rules."""
        return rules.decide(state, command, seat, chance, self.tiles)

    def evolve(self, state: FjordsState | None, event: Event) -> FjordsState:
        """Apply one event; never validates."""
        # Replay speed is fold speed: a started game's events go straight to their handler,
        # one call and one type test fewer per replayed event than through `evolve`.
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
        """Every legal command of the seat (see `legal`)."""
        return legal.legal_commands(state, seat, self.tiles)

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
        return legal.candidate_commands(state, seat, self.tiles)

    def visible_event(self, event: Event, seat: int | None) -> Event | None:
        """Every Fjords event is a public fact (see `views.visible_event`)."""
        return views.visible_event(event, seat)

    def scramble_hidden(self, state: FjordsState, seat: int | None, chance: Chance) -> FjordsState:
        """A copy with other tiles in the bag."""
        return views.scramble_hidden(state, seat, chance, self.tiles)

    def greedy_bot(self, seed: bytes) -> GreedyBot:
        """The stand-in bot: greedy on the seat's immediate score (see `greedy`)."""
        return greedy_bot(seed)

    def pass_command(self, state: Any, seat: int) -> Command | None:
        """None: the rules never let a seat pass."""
        del state, seat
        return None


GAME = FjordsGame(load_tile_set())
