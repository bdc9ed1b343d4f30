"""The Landnám game object the registry exposes: the engine protocol over this package."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from contracts.base import Command, Event, GameConfig
from contracts.games.landnam import (
    DEFAULT_MAX_ROUNDS,
    LandnamBegun,
    LandnamCommand,
    LandnamConfig,
    LandnamEvent,
    LandnamView,
)
from contracts.outcome import Outcome
from domain.bots import GreedyBot
from domain.chance import Chance
from domain.engine import Game
from domain.games.landnam import decide as rules
from domain.games.landnam import evolve as folding
from domain.games.landnam import legal, scoring, setup, views
from domain.games.landnam.greedy import greedy_bot
from domain.games.landnam.state import CURRENT_REVISION, LandnamState


class LandnamGame:
    """Landnám (Tor Gjerde) for 3 to 5 players; see this package's README."""

    name: str = "landnam"
    # The service serves one rules version and refuses stored games of any other, so a rule
    # change is a rules revision instead (recorded in each game's LandnamBegun: state.py),
    # under which stored games keep their own rules; this changes only for a game that no
    # longer replays its stored games.
    rules_version: str = "1"
    config_type: type[GameConfig] = LandnamConfig
    command_type = LandnamCommand
    event_type = LandnamEvent
    view_type = LandnamView
    # A seat may pass its choices (harvest, movement, building, windows, offers).
    may_pass: bool = True

    def rating_variant(self, config: Mapping[str, object]) -> str:
        """`standard`, or `rounds-N` for a game cut at `max_rounds` other than the rule book's."""
        rounds = config.get("max_rounds", DEFAULT_MAX_ROUNDS)
        return "standard" if rounds == DEFAULT_MAX_ROUNDS else f"rounds-{rounds}"

    def example_configs(self) -> Sequence[GameConfig]:
        """Every player count, with short round limits (decision 24 in this package's README)."""
        return [
            LandnamConfig(players=3, max_rounds=6),
            LandnamConfig(players=4, max_rounds=5),
            LandnamConfig(players=5, max_rounds=4),
        ]

    def setup(self, config: GameConfig, chance: Chance) -> list[Event]:
        """The table, the first seat and the Exploration cards."""
        return setup.setup(config, chance)

    def setup_as_recorded(self, config: GameConfig, chance: Chance, first: Event) -> list[Event]:
        """The opening events of a stored game whose first event is `first`: under the rules
        revision it records."""
        revision = first.revision if isinstance(first, LandnamBegun) else CURRENT_REVISION
        return setup.setup(config, chance, revision)

    def decide(
        self, state: LandnamState, command: Command, seat: int, chance: Chance
    ) -> list[Event]:
        """The events a command produces; raises IllegalCommand when the rules refuse it."""
        return rules.decide(state, command, seat, chance)

    def evolve(self, state: LandnamState | None, event: Event) -> LandnamState:
        """Apply one event."""
        return folding.evolve(state, event)

    def fold(self, state: LandnamState | None, events: Iterable[Event]) -> LandnamState | None:
        """Apply events in order."""
        return folding.fold(state, events)

    def copy_state(self, state: LandnamState) -> LandnamState:
        """An independent copy."""
        return state.copy()

    def legal_commands(self, state: LandnamState, seat: int) -> list[Command]:
        """Every command the seat may legally send now."""
        return legal.legal_commands(state, seat)

    def to_act(self, state: LandnamState) -> list[int]:
        """Every seat the game waits for (decision 23)."""
        return legal.to_act(state)

    def view(self, state: LandnamState, seat: int | None) -> LandnamView:
        """What the seat may see."""
        return views.view(state, seat)

    def visible_event(self, event: Event, seat: int | None) -> Event | None:
        """Fate cards drawn by others are redacted."""
        return views.visible_event(event, seat)

    def outcome(self, state: LandnamState) -> Outcome | None:
        """Final scores, or None while the game goes on."""
        return scoring.outcome(state)

    def render_text(self, state: LandnamState) -> str:
        """A text drawing of the table."""
        return views.render_text(state)

    def candidate_commands(self, state: LandnamState, seat: int) -> list[Command]:
        """A superset of the legal commands."""
        return legal.candidate_commands(state, seat)

    def scramble_hidden(
        self, state: LandnamState, seat: int | None, chance: Chance
    ) -> LandnamState:
        """A copy in which only the cards hidden from `seat` differ."""
        return views.scramble_hidden(state, seat, chance)

    def greedy_bot(self, seed: bytes) -> GreedyBot:
        """The stand-in bot: greedy on the seat's immediate score (see `greedy`)."""
        return greedy_bot(seed)

    def pass_command(self, state: LandnamState, seat: int) -> Command | None:
        """The seat's passing choice now (see `legal.passing_command`)."""
        return legal.passing_command(state, seat)


GAME: Final[Game] = LandnamGame()
