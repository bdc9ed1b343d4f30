"""Setting up the table: towns and treasures, the Saga deck, the Rune deck, the first seat.

Every random choice is a numbered draw from the game's `Chance`; `TableSetUp` records the
outcomes (hidden from every seat while the game is in play), so replay needs no randomness.
A shuffle draws, card after card, a uniform position among the cards left in a fixed order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from contracts.base import Event, GameConfig
from contracts.games.fire_and_axe import (
    FireAndAxeConfig,
    RuneDrawn,
    SagaRevealed,
    StartingBonus,
    TableSetUp,
    TownPlaced,
    TurnBegan,
)
from domain.chance import Chance
from domain.errors import IllegalCommand
from domain.games.fire_and_axe.data import (
    DATA,
    PORT_NAMES,
    SAGA_SPACES,
    SAGAS_KEPT_PER_ERA,
    rune_deck_cards,
)
from domain.games.fire_and_axe.state import CURRENT_REVISION

MIN_PLAYERS = 3
MAX_PLAYERS = 5
T = TypeVar("T")


class Draws:
    """Numbered draws from a Chance, starting at `used`."""

    def __init__(self, chance: Chance, used: int = 0) -> None:
        self.chance = chance
        self.used = used
        self.indices: list[int] = []

    def below(self, n: int) -> int:
        """The next draw, uniform in range(n)."""
        value = self.chance.below(self.used, n)
        self.indices.append(self.used)
        self.used += 1
        return value


def shuffled(items: Sequence[T], draws: Draws) -> list[T]:
    """The items in a random order: each next one a uniform pick among those left."""
    left = list(items)
    return [left.pop(draws.below(len(left))) for _ in range(len(items))]


def as_config(config: GameConfig) -> FireAndAxeConfig:
    """The config as a FireAndAxeConfig, checked (msgspec does not check on construction)."""
    if not isinstance(config, FireAndAxeConfig):
        config = FireAndAxeConfig(players=config.players)
    if config.round_limit is not None and config.round_limit < 1:
        raise IllegalCommand(
            "fire_and_axe.config.round_limit",
            "The round limit is at least 1 (or none).",
            round_limit=config.round_limit,
        )
    if not MIN_PLAYERS <= config.players <= MAX_PLAYERS:
        raise IllegalCommand(
            "fire_and_axe.config.players",
            f"Fire & Axe is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {config.players}.",
            players=config.players,
        )
    return config


def place_towns(draws: Draws) -> tuple[TownPlaced, ...]:
    """The town figurines shuffled onto the starred ports, small and large apart."""
    towns = []
    for size in ("small", "large"):
        ports = [port for port in PORT_NAMES if DATA.ports[port].town == size]
        treasures = shuffled(sorted(DATA.treasures[size]), draws)
        towns += [
            TownPlaced(port=port, size=size, treasure=treasure)
            for port, treasure in zip(ports, treasures, strict=True)
        ]
    return tuple(towns)


def stack_sagas(draws: Draws) -> tuple[int, ...]:
    """Per Era, 6 of its 9 Sagas in random order (3 leave unseen); Era I on top, III below."""
    deck: list[int] = []
    for era in sorted({saga.era for saga in DATA.sagas.values()}):
        cards = sorted(saga.id for saga in DATA.sagas.values() if saga.era == era)
        deck += shuffled(cards, draws)[:SAGAS_KEPT_PER_ERA]
    return tuple(deck)


def setup(config: GameConfig, chance: Chance, revision: int = CURRENT_REVISION) -> list[Event]:
    """The opening events: the table, starting VP, three Sagas, one Rune each, the first turn;
    a new game is set up under the current rules revision."""
    checked = as_config(config)
    draws = Draws(chance)
    first_seat = draws.below(checked.players)
    towns = place_towns(draws)
    saga_deck = stack_sagas(draws)
    rune_deck = tuple(shuffled(rune_deck_cards(checked.conflict_runes), draws))
    events: list[Event] = [
        TableSetUp(
            players=checked.players,
            conflict_runes=checked.conflict_runes,
            round_limit=checked.round_limit,
            first_seat=first_seat,
            towns=towns,
            saga_deck=saga_deck,
            rune_deck=rune_deck,
            draws=draws.used,
            revision=revision,
        )
    ]
    order = [(first_seat + step) % checked.players for step in range(checked.players)]
    events += [StartingBonus(seat=seat, points=place + 1) for place, seat in enumerate(order)]
    events += [SagaRevealed(saga=saga_deck[space], space=space) for space in range(SAGA_SPACES)]
    events += [
        RuneDrawn(seat=seat, rune=rune_deck[index], action=False)
        for index, seat in enumerate(order)
    ]
    events.append(TurnBegan(seat=first_seat, sits_out=False))
    return events


def setup_as_recorded(config: GameConfig, chance: Chance, first: Event) -> list[Event]:
    """The opening events of a stored game whose first event is `first`: under the rules
    revision it records."""
    revision = first.revision if isinstance(first, TableSetUp) else CURRENT_REVISION
    return setup(config, chance, revision)
