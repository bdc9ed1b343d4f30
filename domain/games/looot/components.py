"""Looot's components: tiles, Longships, construction sites, Trophies and scoring values.

Source for every figure here: the component data (this package's README, Data provenance);
the per-card data lives in the JSON files beside this
module and is read once at import.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, Final

from contracts.games.looot import Building, Resource, Shield, Site, Tile

_PACKAGE: Final = __name__.rpartition(".")[0]

# The letters the data files use for tiles.
TILE_LETTERS: Final[dict[str, Tile]] = {
    "X": "axe",
    "W": "wood",
    "S": "sheep",
    "G": "gold",
    "H": "house",
    "T": "watchtower",
    "C": "castle",
}
RESOURCES: Final[tuple[Resource, ...]] = ("axe", "wood", "sheep", "gold")
BUILDINGS: Final[tuple[Building, ...]] = ("house", "watchtower", "castle")
TILES: Final[tuple[Tile, ...]] = (*RESOURCES, *BUILDINGS)
# The resource a resource space gives (building spaces give none).
RESOURCE_ON: Final[dict[Tile, Resource]] = {resource: resource for resource in RESOURCES}
_TILES_BY_NAME: Final[dict[str, Tile]] = {tile: tile for tile in TILES}
SHIELDS: Final[tuple[Shield, ...]] = ("second_viking", "occupied_space", "double_resource")
SITES: Final[tuple[Site, ...]] = ("port", "altar", "jarl_palace")

VIKINGS_PER_PLAYER: Final = 13
OCEAN_SLOTS: Final = 5
# Building stacks at setup: 2 on each House, 2 on each Watchtower, 3 on each Castle.
STACK_SIZES: Final[dict[Tile, int]] = {"house": 2, "watchtower": 2, "castle": 3}
# Scoring: (base + bonuses of the player's filled Longships of that type) x tiles of the type.
BASE_VALUES: Final[dict[Tile, int]] = {
    "wood": 1,
    "sheep": 1,
    "gold": 2,
    "house": 1,
    "watchtower": 2,
    "castle": 4,
    "axe": 0,
}
# Trophies: Axes needed -> points.
TROPHY_POINTS: Final[dict[int, int]] = {2: 3, 3: 6, 4: 10, 5: 15, 6: 21}
UNFILLED_LONGSHIP_PENALTY: Final = 5
# A Castle pays its 1st / 2nd / 3rd tile to a group of 4 / 8 / 12 of one player's Vikings.
CASTLE_GROUP_STEP: Final = 4


@dataclass(frozen=True)
class Longship:
    """A Longship card: filled by its `needs` around it, it adds `bonus` per `boosts` tile."""

    id: int
    boosts: Tile
    bonus: int
    needs: tuple[Resource, ...]


@dataclass(frozen=True)
class SiteCard:
    """A construction-site card: the tiles it needs around it and the points it scores."""

    site: Site
    card: int
    needs: tuple[Tile, ...]
    points: int


def tiles_from_letters(letters: str) -> tuple[Tile, ...]:
    """The tiles a data string like "HHS" names."""
    return tuple(TILE_LETTERS[letter] for letter in letters)


def tile_named(name: str) -> Tile:
    """The tile called `name` in the data files; KeyError for anything else."""
    return _TILES_BY_NAME[name]


def load_json(name: str) -> Any:
    """A data file of this package, parsed."""
    return json.loads(files(_PACKAGE).joinpath(name).read_text(encoding="utf-8"))


def _load_longships() -> dict[int, Longship]:
    ships: dict[int, Longship] = {}
    for row in load_json("longships.json")["longships"]:
        # Longships need resources, never buildings: RESOURCE_ON refuses a building letter.
        needs = tuple(RESOURCE_ON[tile] for tile in tiles_from_letters(row["needs"]))
        ships[row["id"]] = Longship(row["id"], tile_named(row["boosts"]), row["bonus"], needs)
    return ships


def _load_site_cards() -> dict[Site, tuple[SiteCard, ...]]:
    data = load_json("construction_sites.json")
    return {
        site: tuple(
            SiteCard(site, number, tiles_from_letters(letters), data[site]["points"])
            for number, letters in enumerate(data[site]["cards"], start=1)
        )
        for site in SITES
    }


LONGSHIPS: Final[dict[int, Longship]] = _load_longships()
SITE_CARDS: Final[dict[Site, tuple[SiteCard, ...]]] = _load_site_cards()


def site_card(site: Site, card: int) -> SiteCard:
    """The construction-site card numbered `card` (1 to 5) of a kind."""
    return SITE_CARDS[site][card - 1]
