"""A player's Fjord: its spaces, and what its tiles complete.

Geometry from fjord.json (this package's README, Data provenance): 34 tile
spaces; the Port, Altar and Jarl Palace are printed on it. A construction site or Longship
needs the listed items on the hexes around it, in any arrangement, and one tile may serve
several of them (rules summary: "Resources adjacent to multiple Longships will satisfy all
adjacent"; "The direction of where each resource/building is is irrelevant").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Final

from contracts.games.looot import Hex, Site, Tile
from domain.games.looot.board import parse_picture
from domain.games.looot.components import LONGSHIPS, load_json, site_card
from domain.games.looot.state import PlayerState
from domain.hexgrid import neighbours

_TILE_SPACE: Final = "o"
_SITE_LETTERS: Final[dict[str, Site]] = {"P": "port", "A": "altar", "J": "jarl_palace"}


def _read_fjord() -> tuple[tuple[Hex, ...], dict[Site, Hex]]:
    spaces: list[Hex] = []
    sites: dict[Site, Hex] = {}
    for space, letter in parse_picture(load_json("fjord.json")["rows"]):
        if letter == _TILE_SPACE:
            spaces.append(space)
        elif letter in _SITE_LETTERS:
            sites[_SITE_LETTERS[letter]] = space
    return tuple(sorted(spaces)), sites


TILE_SPACES, SITE_SPACES = _read_fjord()
_TILE_SPACE_SET: Final = frozenset(TILE_SPACES)
# The tile spaces around each tile space and each construction site.
AROUND: Final[dict[Hex, tuple[Hex, ...]]] = {
    space: tuple(n for n in neighbours(space) if n in _TILE_SPACE_SET)
    for space in (*TILE_SPACES, *SITE_SPACES.values())
}


def is_tile_space(space: Hex) -> bool:
    """Whether a hex is one of the Fjord's tile spaces."""
    return space in _TILE_SPACE_SET


def is_free(player: PlayerState, space: Hex) -> bool:
    """Whether a Fjord space can still take a tile or a Longship."""
    return space in _TILE_SPACE_SET and space not in player.tiles and space not in player.longships


def free_spaces(player: PlayerState) -> list[Hex]:
    """The Fjord's free spaces, sorted."""
    return [space for space in TILE_SPACES if is_free(player, space)]


def has_around(player: PlayerState, space: Hex, needs: Iterable[Tile]) -> bool:
    """Whether the tiles around `space` include every item of `needs` (with repeats)."""
    around = Counter(player.tiles[n] for n in AROUND[space] if n in player.tiles)
    return all(around[tile] >= count for tile, count in Counter(needs).items())


def axes(player: PlayerState) -> int:
    """The Axe tiles on the Fjord (their positions do not matter for Trophies)."""
    return sum(1 for tile in player.tiles.values() if tile == "axe")


def newly_completed(player: PlayerState) -> tuple[list[Site], list[int]]:
    """Decision 8 in this package's README: the sites and Longships whose needs are met but are not
    flipped yet.

    The rules say a player "may flip" them; flipping never costs anything, so it happens as
    soon as the needs are met, including for a Longship put where its needs already are.
    """
    sites = [
        site
        for site, card in player.sites.items()
        if site not in player.completed
        and has_around(player, SITE_SPACES[site], site_card(site, card).needs)
    ]
    ships = [
        ship
        for space, ship in sorted(player.longships.items())
        if ship not in player.filled and has_around(player, space, LONGSHIPS[ship].needs)
    ]
    return sites, ships
