"""Setting up: the first seat, and each player's Exploration card (decision 16)."""

from __future__ import annotations

from contracts.base import Event, GameConfig
from contracts.games.landnam import LandnamBegun, LandnamConfig
from domain.chance import Chance
from domain.errors import IllegalCommand
from domain.games.landnam.components import EXPLORATION_CARDS
from domain.games.landnam.evolve import evolve
from domain.games.landnam.state import CURRENT_REVISION
from domain.games.landnam.work import Work

MIN_PLAYERS = 3
MAX_PLAYERS = 5


def as_landnam_config(config: GameConfig) -> LandnamConfig:
    """The config as a LandnamConfig, checked (decision 1: 3 to 5 players)."""
    if not isinstance(config, LandnamConfig):
        config = LandnamConfig(players=config.players)
    if not MIN_PLAYERS <= config.players <= MAX_PLAYERS:
        raise IllegalCommand(
            "landnam.config.players",
            f"Landnám is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {config.players}.",
            players=config.players,
        )
    return config


def setup(config: GameConfig, chance: Chance, revision: int = CURRENT_REVISION) -> list[Event]:
    """The opening events: the table (draw 0 picks the first seat), then one Exploration card
    each, drawn among those in the deck (the odds of drawing until one appears); a new game
    is set up under the current rules revision."""
    checked = as_landnam_config(config)
    first_seat = chance.below(0, checked.players)
    begun = LandnamBegun(
        players=checked.players,
        first_seat=first_seat,
        max_rounds=checked.max_rounds,
        revision=revision,
    )
    work = Work(evolve(None, begun), chance)
    for seat in range(checked.players):
        work.draw_fate(seat, among=tuple(sorted(EXPLORATION_CARDS)))
    return [begun, *work.events]


def setup_as_recorded(config: GameConfig, chance: Chance, first: Event) -> list[Event]:
    """The opening events of a stored game whose first event is `first`: under the rules
    revision it records."""
    revision = first.revision if isinstance(first, LandnamBegun) else CURRENT_REVISION
    return setup(config, chance, revision)
