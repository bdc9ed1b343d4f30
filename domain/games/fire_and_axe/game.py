"""The Fire & Axe game object the registry exposes: the engine protocol over this package."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from contracts.base import Command, Event, GameConfig
from contracts.games.fire_and_axe import (
    DEFAULT_ROUND_LIMIT,
    FireAndAxeCommand,
    FireAndAxeConfig,
    FireAndAxeEvent,
    FireAndAxeView,
    TableSetUp,
)
from contracts.outcome import Outcome
from domain.bots import GreedyBot
from domain.chance import Chance
from domain.engine import Game, check_may_act
from domain.games.fire_and_axe import decide as rules
from domain.games.fire_and_axe import legal, render, scoring, setup, views
from domain.games.fire_and_axe.evolve import evolve
from domain.games.fire_and_axe.greedy import greedy_bot
from domain.games.fire_and_axe.state import CURRENT_REVISION, FireAndAxeState


class FireAndAxeGame:
    """Fire & Axe: A Viking Saga (IDW 2015) for 3 to 5 players; see this package's README."""

    name: str = "fire-and-axe"
    # The service serves one rules version and refuses stored games of any other, so a rule
    # change is a rules revision instead (recorded in each game's TableSetUp: state.py), under
    # which stored games keep their own rules; this changes only for a game that no longer
    # replays its stored games. "provisional": the board, treasures and cards are designed
    # (see the README).
    rules_version: str = "2015/provisional-1"
    config_type: type[GameConfig] = FireAndAxeConfig
    command_type = FireAndAxeCommand
    event_type = FireAndAxeEvent
    view_type = FireAndAxeView
    # No passing: a turn cannot end in the Wintering Zone (decision 5, README).
    may_pass: bool = False

    def rating_variant(self, config: Mapping[str, object]) -> str:
        """`standard`, or parts joined by `-`: `no-conflict-runes` (`conflict_runes: false`),
        `rounds-N` or `no-round-limit` (a `round_limit` other than the default)."""
        parts = []
        if config.get("conflict_runes", True) is False:
            parts.append("no-conflict-runes")
        rounds = config.get("round_limit", DEFAULT_ROUND_LIMIT)
        if rounds is None:
            parts.append("no-round-limit")
        elif rounds != DEFAULT_ROUND_LIMIT:
            parts.append(f"rounds-{rounds}")
        return "-".join(parts) or "standard"

    def example_configs(self) -> Sequence[GameConfig]:
        """3, 4 and 5 players, with and without the conflict Runes; short round limits keep
        games of random bots quick (they rarely complete Sagas)."""
        return [
            FireAndAxeConfig(players=players, conflict_runes=conflict, round_limit=limit)
            for conflict in (True, False)
            for players, limit in ((3, 20), (4, 16), (5, 12))
        ]

    def setup(self, config: GameConfig, chance: Chance) -> list[Event]:
        """The table, the decks, the first Sagas and Runes."""
        return setup.setup(config, chance)

    def setup_as_recorded(self, config: GameConfig, chance: Chance, first: Event) -> list[Event]:
        """The opening events of a stored game whose first event is `first`: under the rules
        revision it records."""
        revision = first.revision if isinstance(first, TableSetUp) else CURRENT_REVISION
        return setup.setup(config, chance, revision)

    def decide(
        self, state: FireAndAxeState, command: Command, seat: int, chance: Chance
    ) -> list[Event]:
        """The events a command produces; raises IllegalCommand when the rules refuse it.

        The shared turn rules come first, so a direct call refuses a waiting seat too.
        """
        check_may_act(self, state, seat)
        return rules.decide(state, command, seat, chance)

    def evolve(self, state: FireAndAxeState | None, event: Event) -> FireAndAxeState:
        """Apply one event."""
        return evolve(state, event)

    def copy_state(self, state: FireAndAxeState) -> FireAndAxeState:
        """An independent copy."""
        return state.copy()

    def legal_commands(self, state: FireAndAxeState, seat: int) -> list[Command]:
        """Every command the seat may legally send now."""
        return legal.legal_commands(state, seat)

    def to_act(self, state: FireAndAxeState) -> list[int]:
        """The current player, or nobody once the game is over."""
        return [] if state.turn is None or state.ended else [state.turn.seat]

    def view(self, state: FireAndAxeState, seat: int | None) -> FireAndAxeView:
        """The table as the seat sees it."""
        return views.view(state, seat)

    def visible_event(self, event: Event, seat: int | None) -> Event | None:
        """The event with what the seat may not see blanked."""
        return views.visible_event(event, seat)

    def outcome(self, state: FireAndAxeState) -> Outcome | None:
        """Final scores with a per-rule breakdown, or None while the game goes on."""
        return scoring.outcome(state)

    def render_text(self, state: FireAndAxeState) -> str:
        """A text drawing of the table."""
        return render.render_text(state)

    def candidate_commands(self, state: FireAndAxeState, seat: int) -> list[Command]:
        """A superset of the legal commands."""
        return legal.candidate_commands(state, seat)

    def scramble_hidden(
        self, state: FireAndAxeState, seat: int | None, chance: Chance
    ) -> FireAndAxeState:
        """A copy whose hidden information (to `seat`) differs."""
        return views.scramble_hidden(state, seat, chance)

    def greedy_bot(self, seed: bytes) -> GreedyBot:
        """The stand-in bot: greedy on the seat's immediate score (see `greedy`)."""
        return greedy_bot(seed)

    def pass_command(self, state: Any, seat: int) -> Command | None:
        """None: the rules never let a seat pass."""
        del state, seat
        return None


GAME: Final[Game] = FireAndAxeGame()
