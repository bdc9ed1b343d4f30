"""The Landnám game object the registry exposes: its metadata, and the rules of this package."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from contracts.base import GameConfig
from contracts.games.landnam import (
    DEFAULT_MAX_ROUNDS,
    LandnamCommand,
    LandnamConfig,
    LandnamEvent,
    LandnamView,
)
from domain.engine import Game
from domain.games.landnam import decide, evolve, legal, scoring, setup, views
from domain.games.landnam.greedy import greedy_bot
from domain.games.landnam.state import LandnamState
from domain.kernel.rules_game import Rules, RulesGame


class LandnamGame(RulesGame[LandnamState]):
    """Landnám (Tor Gjerde) for 3 to 5 players; see this package's README."""

    name = "landnam"
    # The service serves one rules version and refuses stored games of any other, so a rule
    # change is a rules revision instead (recorded in each game's LandnamBegun: state.py),
    # under which stored games keep their own rules; this changes only for a game that no
    # longer replays its stored games.
    rules_version = "1"
    config_type: type[GameConfig] = LandnamConfig
    command_type = LandnamCommand
    event_type = LandnamEvent
    view_type = LandnamView
    # A seat may pass its choices (harvest, movement, building, windows, offers).
    may_pass = True
    rules = Rules(
        setup=setup.setup,
        setup_as_recorded=setup.setup_as_recorded,
        decide=decide.decide,
        evolve=evolve.evolve,
        fold=evolve.fold,
        copy_state=LandnamState.copy,
        legal_commands=legal.legal_commands,
        candidate_commands=legal.candidate_commands,
        # Every seat the game waits for (decision 23).
        to_act=legal.to_act,
        view=views.view,
        # Fate cards drawn by others are redacted.
        visible_event=views.visible_event,
        scramble_hidden=views.scramble_hidden,
        outcome=scoring.outcome,
        render_text=views.render_text,
        greedy_bot=greedy_bot,
        pass_command=legal.passing_command,
    )

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


GAME: Final[Game] = LandnamGame()
