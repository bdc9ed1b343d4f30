"""The Looot game object the registry exposes: the engine protocol over this package."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from contracts.base import Command, Event, GameConfig
from contracts.games.looot import LoootCommand, LoootConfig, LoootEvent, LoootView
from contracts.outcome import Outcome
from domain.bots import GreedyBot
from domain.chance import Chance
from domain.engine import Game
from domain.games.looot import decide as rules
from domain.games.looot import evolve as folding
from domain.games.looot import legal, render, scoring, setup, views
from domain.games.looot.greedy import greedy_bot
from domain.games.looot.state import LoootState


class LoootGame:
    """Looot (Gigamic 2023) for 2 to 4 players; see this package's README."""

    name: str = "looot"
    # Bump when a rule, a decision or the data changes: stored games replay under their own.
    rules_version: str = "1"
    config_type: type[GameConfig] = LoootConfig
    command_type = LoootCommand
    event_type = LoootEvent
    view_type = LoootView
    # No passing: every turn places a Viking.
    may_pass: bool = False

    def rating_variant(self, config: Mapping[str, object]) -> str:
        """One rating pool: `faces` only fixes the set-up, no option changes the rules."""
        return "standard"

    def example_configs(self) -> Sequence[GameConfig]:
        """Every player count, drawn faces, and a fixed board."""
        return [
            LoootConfig(players=2),
            LoootConfig(players=3),
            LoootConfig(players=4),
            LoootConfig(players=2, faces=(8, 3)),
        ]

    def setup(self, config: GameConfig, chance: Chance) -> list[Event]:
        """The table and the Longship market."""
        return setup.setup(config, chance)

    def decide(self, state: LoootState, command: Command, seat: int, chance: Chance) -> list[Event]:
        """The events a command produces; raises IllegalCommand when the rules refuse it."""
        return rules.decide(state, command, seat, chance)

    def evolve(self, state: LoootState | None, event: Event) -> LoootState:
        """Apply one event."""
        return folding.evolve(state, event)

    def copy_state(self, state: LoootState) -> LoootState:
        """An independent copy."""
        return state.copy()

    def legal_commands(self, state: LoootState, seat: int) -> list[Command]:
        """Every command the seat may legally send now."""
        return legal.legal_commands(state, seat)

    def to_act(self, state: LoootState) -> list[int]:
        """The current player, or nobody once the game is over."""
        return [] if state.turn is None else [state.turn.seat]

    def view(self, state: LoootState, seat: int | None) -> LoootView:
        """Everything on the table; the bag's content is hidden from everyone."""
        return views.view(state, seat)

    def outcome(self, state: LoootState) -> Outcome | None:
        """Final scores with a per-rule breakdown, or None while the game goes on."""
        return scoring.outcome(state)

    def render_text(self, state: LoootState) -> str:
        """A text drawing of the table."""
        return render.render_text(state)

    def candidate_commands(self, state: LoootState, seat: int) -> list[Command]:
        """A superset of the legal commands."""
        return legal.candidate_commands(state, seat)

    def visible_event(self, event: Event, seat: int | None) -> Event | None:
        """Every Looot event is a public fact (see `views.visible_event`)."""
        return views.visible_event(event, seat)

    def scramble_hidden(self, state: LoootState, seat: int | None, chance: Chance) -> LoootState:
        """A copy whose bag (the only hidden thing) holds other Longships, as many of them."""
        return views.scramble_hidden(state, seat, chance)

    def greedy_bot(self, seed: bytes) -> GreedyBot:
        """The stand-in bot: greedy on the seat's immediate score (see `greedy`)."""
        return greedy_bot(seed)

    def pass_command(self, state: Any, seat: int) -> Command | None:
        """None: the rules never let a seat pass."""
        del state, seat
        return None


GAME: Final[Game] = LoootGame()
