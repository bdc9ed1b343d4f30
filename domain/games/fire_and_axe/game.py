"""The Fire & Axe game object the registry exposes: its metadata, and the rules of this
package."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from contracts.base import Command, Event, GameConfig
from contracts.games.fire_and_axe import (
    DEFAULT_ROUND_LIMIT,
    FireAndAxeCommand,
    FireAndAxeConfig,
    FireAndAxeEvent,
    FireAndAxeView,
)
from domain.chance import Chance
from domain.engine import Game, check_may_act
from domain.games.fire_and_axe import decide, legal, render, scoring, setup, views
from domain.games.fire_and_axe.evolve import evolve
from domain.games.fire_and_axe.greedy import greedy_bot
from domain.games.fire_and_axe.state import FireAndAxeState
from domain.kernel.rules_game import Rules, RulesGame


class FireAndAxeGame(RulesGame[FireAndAxeState]):
    """Fire & Axe: A Viking Saga (IDW 2015) for 3 to 5 players; see this package's README."""

    name = "fire-and-axe"
    # The service serves one rules version and refuses stored games of any other, so a rule
    # change is a rules revision instead (recorded in each game's TableSetUp: state.py), under
    # which stored games keep their own rules; this changes only for a game that no longer
    # replays its stored games. "provisional": the board, treasures and cards are designed
    # (see the README).
    rules_version = "2015/provisional-1"
    config_type: type[GameConfig] = FireAndAxeConfig
    command_type = FireAndAxeCommand
    event_type = FireAndAxeEvent
    view_type = FireAndAxeView
    # No passing: a turn cannot end in the Wintering Zone (decision 5, README).
    may_pass = False
    rules = Rules(
        setup=setup.setup,
        setup_as_recorded=setup.setup_as_recorded,
        decide=decide.decide,
        evolve=evolve,
        copy_state=FireAndAxeState.copy,
        legal_commands=legal.legal_commands,
        candidate_commands=legal.candidate_commands,
        to_act=legal.to_act,
        view=views.view,
        # The event with what the seat may not see blanked.
        visible_event=views.visible_event,
        scramble_hidden=views.scramble_hidden,
        outcome=scoring.outcome,
        render_text=render.render_text,
        greedy_bot=greedy_bot,
    )

    def decide(
        self, state: FireAndAxeState, command: Command, seat: int, chance: Chance
    ) -> list[Event]:
        """The events a command produces; raises IllegalCommand when the rules refuse it.

        The shared turn rules come first, so a direct call refuses a waiting seat too.
        """
        check_may_act(self, state, seat)
        return super().decide(state, command, seat, chance)

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


GAME: Final[Game] = FireAndAxeGame()
