"""Fjords tiles: the corner model and the tile set loaded from a data file.

A tile shows terrain on its six corners (this package's README, Data provenance): M mountain,
P plains, S sea, listed clockwise from the top corner N, NE, SE, S, SW, NW. Turning a tile 60
degrees clockwise turns its corner string right by one (`domain.hexgrid.rotate_corners`).

The tile set is data, not code (`tiles.json`, format in `README.md` beside it), because the
real list of the 64 landscape tiles is not public: the shipped set is provisional and can be
replaced without touching the engine. Loading checks the file and fails with a clear message.

Each tile is precomputed into its distinct orientations, which the placement checks use:
rotations that give the same corners (and regions) are one orientation, listed once under the
smallest rotation that gives it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from typing import Any

from domain.hexgrid import Hex, rotate_corners

TERRAINS = "MPS"
LAND = frozenset("MP")
MARKS = frozenset({"3", "4"})
SYMBOLS = frozenset({"strength", "water", "friendship"})
# Two bits per corner: 0 means "unconstrained" in a placement constraint, so no terrain is 0.
TERRAIN_CODE = {"M": 1, "P": 2, "S": 3}


class TileSetError(ValueError):
    """The tile data file is malformed; the message names the tile and the problem."""


def corner_code(corners: str) -> int:
    """The corners packed two bits each, corner k at bits 2k and 2k+1."""
    code = 0
    for k, terrain in enumerate(corners):
        code |= TERRAIN_CODE[terrain] << (2 * k)
    return code


def corner_mask(corners: Iterable[int]) -> int:
    """A six-bit set of corner indices."""
    mask = 0
    for k in corners:
        mask |= 1 << k
    return mask


@dataclass(frozen=True, slots=True)
class Orientation:
    """One distinct way a tile can lie: its rotation, corners and derived lookups."""

    rotation: int
    corners: str
    code: int  # corner_code(corners)
    # Corner masks, one per land region (decision 1 in this package's README).
    land_regions: tuple[int, ...]
    has_plains: bool


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile as printed (rotation 0), with its "3"/"4" mark and rune symbol, if any."""

    id: int
    corners: str
    mark: str | None = None
    symbol: str | None = None
    label: str | None = None
    # Land regions as corner masks at rotation 0; by decision 1 in this package's README all land
    # corners form one.
    land_regions: tuple[int, ...] = ()
    orientations: tuple[Orientation, ...] = field(default=(), compare=False)

    @property
    def has_plains(self) -> bool:
        """A tile "contains plains" when one of its corners is P (decision 3 in this package's
        README)."""
        return "P" in self.corners

    def orientation(self, rotation: int) -> Orientation:
        """The orientation that `rotation` (0..5) gives, under its smallest rotation."""
        corners = rotate_corners(self.corners, rotation)
        regions = _rotate_regions(self.land_regions, rotation)
        for option in self.orientations:
            if option.corners == corners and set(option.land_regions) == set(regions):
                return option
        raise AssertionError("every rotation maps onto a precomputed orientation")


@dataclass(frozen=True, slots=True)
class StartingTile:
    """A starting tile and where the setup puts it (the 2005 rule book's picture)."""

    tile: Tile
    position: Hex
    rotation: int


@dataclass(frozen=True)
class TileSet:
    """The landscape tiles (by id) and the starting layout of one tile data file."""

    name: str
    provisional: bool
    landscape: Mapping[int, Tile]
    starting: tuple[StartingTile, ...]

    def tile(self, tile_id: int) -> Tile:
        """The tile with this id, landscape or starting."""
        found = self.landscape.get(tile_id)
        if found is not None:
            return found
        for start in self.starting:
            if start.tile.id == tile_id:
                return start.tile
        raise KeyError(f"no tile {tile_id} in tile set {self.name!r}")

    def bag_for(self, players: int) -> list[int]:
        """The landscape tiles a game of `players` uses, sorted by id.

        Rule book, setup: 4 players use all tiles, 3 remove those marked "4", 2 remove those
        marked "3" or "4".
        """
        return list(self._bags[players])

    @cached_property
    def _bags(self) -> dict[int, tuple[int, ...]]:
        """Each player count's bag, sorted once: every replayed GameStarted asks for one."""
        removed_by_players = {2: {"3", "4"}, 3: {"4"}, 4: set[str]()}
        return {
            players: tuple(sorted(t.id for t in self.landscape.values() if t.mark not in removed))
            for players, removed in removed_by_players.items()
        }


def _rotate_regions(regions: tuple[int, ...], rotation: int) -> tuple[int, ...]:
    k = rotation % 6
    return tuple(((mask << k) | (mask >> (6 - k))) & 0b111111 for mask in regions)


def _orientations(corners: str, regions: tuple[int, ...]) -> tuple[Orientation, ...]:
    seen: set[tuple[str, frozenset[int]]] = set()
    options = []
    for rotation in range(6):
        turned = rotate_corners(corners, rotation)
        turned_regions = _rotate_regions(regions, rotation)
        key = (turned, frozenset(turned_regions))
        if key in seen:
            continue
        seen.add(key)
        options.append(
            Orientation(rotation, turned, corner_code(turned), turned_regions, "P" in turned)
        )
    return tuple(options)


def make_tile(
    tile_id: int,
    corners: str,
    *,
    mark: str | None = None,
    symbol: str | None = None,
    label: str | None = None,
    regions: list[list[int]] | None = None,
) -> Tile:
    """A checked tile with its orientations precomputed; TileSetError names what is wrong."""
    where = f"tile {tile_id}"
    if len(corners) != 6 or any(c not in TERRAINS for c in corners):
        raise TileSetError(f"{where}: corners must be 6 letters of M, P, S, got {corners!r}")
    if mark is not None and mark not in MARKS:
        raise TileSetError(f"{where}: mark must be null, '3' or '4', got {mark!r}")
    if symbol is not None and symbol not in SYMBOLS:
        raise TileSetError(f"{where}: symbol must be null or one of {sorted(SYMBOLS)}")
    land = [k for k, c in enumerate(corners) if c in LAND]
    land_regions: tuple[int, ...]
    if regions is None:
        land_regions = (corner_mask(land),) if land else ()
    else:
        listed = sorted(k for region in regions for k in region)
        if listed != land or any(not region for region in regions):
            raise TileSetError(
                f"{where}: regions must split the land corners {land} into non-empty groups"
            )
        land_regions = tuple(corner_mask(region) for region in regions)
    return Tile(
        tile_id, corners, mark, symbol, label, land_regions, _orientations(corners, land_regions)
    )


def parse_tile_set(data: Mapping[str, Any]) -> TileSet:
    """A TileSet from the decoded JSON document described in README.md."""
    if data.get("format") != 1:
        raise TileSetError(f"unknown tile data format {data.get('format')!r} (expected 1)")
    ids: set[int] = set()

    def checked(entry: Mapping[str, Any]) -> Tile:
        tile_id = entry.get("id")
        if not isinstance(tile_id, int) or tile_id in ids:
            raise TileSetError(f"tile ids must be unique integers, got {tile_id!r}")
        ids.add(tile_id)
        return make_tile(
            tile_id,
            str(entry.get("corners", "")),
            mark=entry.get("mark"),
            symbol=entry.get("symbol"),
            label=entry.get("label"),
            regions=entry.get("regions"),
        )

    landscape = {tile.id: tile for tile in map(checked, data.get("landscape", []))}
    starting = tuple(
        StartingTile(checked(entry), (int(entry["q"]), int(entry["r"])), int(entry["rotation"]))
        for entry in data.get("starting", [])
    )
    if not landscape or not starting:
        raise TileSetError("a tile set needs landscape tiles and starting tiles")
    return TileSet(str(data.get("name", "")), bool(data.get("provisional")), landscape, starting)


def load_tile_set(filename: str = "tiles.json") -> TileSet:
    """The tile set shipped in this package (read once, at import of the game)."""
    text = resources.files(__package__).joinpath(filename).read_text(encoding="utf-8")
    return parse_tile_set(json.loads(text))
