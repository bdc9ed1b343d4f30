"""Setting up the table: faces, construction sites, the first player, the Longship market.

Every random choice is a draw from the game's `Chance` with a counted index; the events record
the outcomes, so replay needs no randomness.
"""

from __future__ import annotations

from contracts.base import Event, GameConfig
from contracts.games.looot import FjordSites, GameSetUp, LongshipDrawn, LoootConfig
from domain.chance import Chance
from domain.errors import IllegalCommand
from domain.games.looot.board import FACES, physical_board
from domain.games.looot.components import LONGSHIPS, OCEAN_SLOTS, SITE_CARDS, SITES

MIN_PLAYERS = 2
MAX_PLAYERS = 4


class _Draws:
    """Numbered draws from a Chance: draw k is the k-th of the game, from 0."""

    def __init__(self, chance: Chance) -> None:
        self.chance = chance
        self.used = 0

    def below(self, n: int) -> int:
        value = self.chance.below(self.used, n)
        self.used += 1
        return value


def as_looot_config(config: GameConfig) -> LoootConfig:
    """The config as a LoootConfig, checked (the constructor does not check constraints)."""
    if not isinstance(config, LoootConfig):
        config = LoootConfig(players=config.players)
    if not MIN_PLAYERS <= config.players <= MAX_PLAYERS:
        raise IllegalCommand(
            "looot.config.players",
            f"Looot is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {config.players}.",
            players=config.players,
        )
    if config.faces:
        boards = [physical_board(face) for face in config.faces]
        if (
            len(config.faces) != config.players
            or any(face not in FACES for face in config.faces)
            or len(set(boards)) != len(boards)
        ):
            raise IllegalCommand(
                "looot.config.faces",
                f"Give one face per player, each from 1 to {len(FACES)}, from different "
                "boards (board k has faces 2k-1 and 2k).",
                faces=list(config.faces),
            )
    return config


def draw_faces(players: int, draws: _Draws) -> tuple[int, ...]:
    """`players` of the landscape boards, drawn at random, each a random side up (decision 1 in
    this package's README).

    Slot by slot, a board is drawn among those left (sorted), then its side.
    """
    boards = sorted({physical_board(face) for face in FACES})
    faces: list[int] = []
    for _ in range(players):
        board = boards.pop(draws.below(len(boards)))
        faces.append(2 * board - 1 + draws.below(2))
    return tuple(faces)


def deal_sites(players: int, draws: _Draws) -> tuple[FjordSites, ...]:
    """Each player gets one Port, one Altar and one Jarl Palace card, at random (decision 3 in
    this package's README).

    The component data lists 5 cards of each kind and one printed space of each kind per Fjord. Seat
    by seat, each kind is drawn among the cards of that kind left (sorted by number).
    """
    left = {site: [card.card for card in SITE_CARDS[site]] for site in SITES}
    hands = []
    for _ in range(players):
        port, altar, jarl = (left[site].pop(draws.below(len(left[site]))) for site in SITES)
        hands.append(FjordSites(port=port, altar=altar, jarl_palace=jarl))
    return tuple(hands)


def draw_first_seat(players: int, draws: _Draws) -> int:
    """The first player is drawn at random (decision 2 in this package's README): the book's
    "furthest north" is not something a server can know."""
    return draws.below(players)


def setup(config: GameConfig, chance: Chance) -> list[Event]:
    """The opening events: the table, then the five Longships drawn from the bag."""
    checked = as_looot_config(config)
    draws = _Draws(chance)
    faces = checked.faces or draw_faces(checked.players, draws)
    sites = deal_sites(checked.players, draws)
    first_seat = draw_first_seat(checked.players, draws)
    events: list[Event] = [
        GameSetUp(
            players=checked.players,
            faces=faces,
            sites=sites,
            first_seat=first_seat,
            draws=draws.used,
        )
    ]
    bag = sorted(LONGSHIPS)
    for slot in range(OCEAN_SLOTS):
        longship = draw_from_bag(bag, chance, draws.used)
        events.append(LongshipDrawn(slot=slot, longship=longship, draw=draws.used))
        bag.remove(longship)
        draws.used += 1
    return events


def draw_from_bag(bag: list[int], chance: Chance, index: int) -> int:
    """The Longship that draw number `index` takes: a uniform index into the sorted bag."""
    return bag[chance.below(index, len(bag))]
