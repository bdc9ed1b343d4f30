"""The Fjords game object: its metadata, and the rules of this package over a tile set."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial

from contracts.base import GameConfig
from contracts.games.fjords import (
    RUNE_NAMES,
    FjordsCommand,
    FjordsConfig,
    FjordsEvent,
    FjordsView,
)
from domain.games.fjords import decide, legal, render, scoring, setup, views
from domain.games.fjords.evolve import evolver, fold
from domain.games.fjords.greedy import greedy_bot
from domain.games.fjords.state import FjordsState
from domain.games.fjords.tiles import TileSet, load_tile_set
from domain.games.fjords.variants import PRESETS, preset_config
from domain.kernel.rules_game import Rules, RulesGame

# Changes with any rule that changes events or scores (2: the Water rune's coastline, decision
# 11 in this package's README), so a stored game is never scored under rules it was not played
# under; options (variants, rune stones) are recorded in each game's events instead.
RULES_EDITION = "fjords-2021.2"


def rules_over(tiles: TileSet) -> Rules[FjordsState]:
    """The rules of this package played with `tiles`."""
    return Rules(
        setup=partial(setup.setup, tiles=tiles),
        decide=partial(decide.decide, tiles=tiles),
        evolve=evolver(tiles),
        fold=partial(fold, tiles=tiles),
        copy_state=FjordsState.copy,
        legal_commands=partial(legal.legal_commands, tiles=tiles),
        candidate_commands=partial(legal.candidate_commands, tiles=tiles),
        # The seat whose turn it is.
        to_act=views.to_act,
        # The table without the bag's content; every event is a public fact.
        view=partial(views.view, tiles=tiles),
        visible_event=views.visible_event,
        # A copy with other tiles in the bag.
        scramble_hidden=partial(views.scramble_hidden, tiles=tiles),
        # Final scores once every seat is out (Classic: once the match's third game is).
        outcome=scoring.outcome,
        render_text=partial(render.render_text, tiles=tiles),
        greedy_bot=greedy_bot,
    )


class FjordsGame(RulesGame[FjordsState]):
    """Fjords (Grail Games 2021) over a tile set: the shipped one, or a test's own."""

    name = "fjords"
    config_type: type[GameConfig] = FjordsConfig
    command_type = FjordsCommand
    event_type = FjordsEvent
    view_type = FjordsView
    # No passing: every Exploration and Settlement turn places a piece (or a rune).
    may_pass = False

    def __init__(self, tiles: TileSet) -> None:
        self.tiles = tiles
        # A new tile set changes the rules a stored game replays under.
        self.rules_version = f"{RULES_EDITION}/{tiles.name}"
        self.rules = rules_over(tiles)

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


GAME = FjordsGame(load_tile_set())
