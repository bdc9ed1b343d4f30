"""The Looot game object the registry exposes: its metadata, and the rules of this package."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from contracts.base import GameConfig
from contracts.games.looot import LoootCommand, LoootConfig, LoootEvent, LoootView
from domain.engine import Game
from domain.games.looot import decide, evolve, legal, render, scoring, setup, views
from domain.games.looot.greedy import greedy_bot
from domain.games.looot.state import LoootState
from domain.kernel.rules_game import Rules, RulesGame


class LoootGame(RulesGame[LoootState]):
    """Looot (Gigamic 2023) for 2 to 4 players; see this package's README."""

    name = "looot"
    # Bump when a rule, a decision or the data changes: stored games replay under their own.
    rules_version = "1"
    config_type: type[GameConfig] = LoootConfig
    command_type = LoootCommand
    event_type = LoootEvent
    view_type = LoootView
    # No passing: every turn places a Viking.
    may_pass = False
    rules = Rules(
        setup=setup.setup,
        decide=decide.decide,
        evolve=evolve.evolve,
        copy_state=LoootState.copy,
        legal_commands=legal.legal_commands,
        candidate_commands=legal.candidate_commands,
        to_act=legal.to_act,
        # Everything on the table; the bag's content is hidden from everyone.
        view=views.view,
        visible_event=views.visible_event,
        scramble_hidden=views.scramble_hidden,
        outcome=scoring.outcome,
        render_text=render.render_text,
        greedy_bot=greedy_bot,
    )

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


GAME: Final[Game] = LoootGame()
