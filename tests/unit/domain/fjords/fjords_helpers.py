"""Hand-built Fjords tables for scenario tests.

Boards are painted, not typed corner by corner: `Landscape` gives every corner of the hex grid a
terrain (plains unless painted), so tiles sharing a corner always agree, as on a real table.
States are built by folding hand-written events through the game under test, with a small tile
set of the test's own, so scenarios do not depend on the provisional tile list.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from contracts.base import Command, Event
from contracts.games.fjords import (
    ExplorationEnded,
    GameStarted,
    LonghousePlaced,
    PlayerOut,
    RuneStoneDiscarded,
    RuneStonePlaced,
    SettlementEnded,
    TileDrawn,
    TilePlaced,
    TileSetAside,
    VikingPlaced,
)
from domain.chance import Chance
from domain.engine import decide, fold
from domain.games.fjords import FjordsGame
from domain.games.fjords.state import COLOURS, FjordsState
from domain.games.fjords.tiles import StartingTile, Tile, TileSet, make_tile
from domain.games.fjords.variants import EPIC_COLOURS
from domain.hexgrid import CORNER_NAMES, Hex, facing_corners, neighbour

# A piece's owner, or its owner and colour (Epic seats play two colours).
Owner = int | tuple[int, str]

SEED = bytes(range(32))


def corner_key(position: Hex, corner: int) -> tuple[str, int, int]:
    """One name for each corner of the grid, whichever of its three hexes names it.

    Every corner is the N corner or the S corner of exactly one hex (pointy-top geometry).
    """
    q, r = position
    return {
        0: ("N", q, r),
        1: ("S", q + 1, r - 1),
        2: ("N", q, r + 1),
        3: ("S", q, r),
        4: ("N", q - 1, r + 1),
        5: ("S", q, r - 1),
    }[corner]


@dataclass
class Landscape:
    """Terrain painted on the grid's corners; unpainted corners are `default`."""

    default: str = "P"
    painted: dict[tuple[str, int, int], str] = field(default_factory=dict)

    def paint(self, position: Hex, corners: str | Iterable[str], terrain: str) -> Landscape:
        """Give the named corners (e.g. "SE" or ["N", "NE"]) of `position` a terrain."""
        names = [corners] if isinstance(corners, str) else list(corners)
        for name in names:
            self.painted[corner_key(position, CORNER_NAMES.index(name))] = terrain
        return self

    def paint_side(self, position: Hex, side: int, terrain: str) -> Landscape:
        """Give both corners of one side of `position` a terrain (a ridge or a strait)."""
        for corner in (side, (side + 1) % 6):
            self.painted[corner_key(position, corner)] = terrain
        return self

    def corners(self, position: Hex) -> str:
        """The corner string (N..NW) of a tile lying at `position`."""
        return "".join(self.painted.get(corner_key(position, k), self.default) for k in range(6))

    def board(self, positions: Iterable[Hex]) -> dict[Hex, str]:
        """Tiles at `positions`, each showing the painted terrain."""
        return {position: self.corners(position) for position in positions}


def assert_board_fits(board: Mapping[Hex, str]) -> None:
    """Every pair of adjacent tiles agrees on both shared corners (a check on the helper)."""
    for here, corners in board.items():
        for side in range(6):
            there = board.get(neighbour(here, side))
            if there is not None:
                for mine, theirs in facing_corners(side):
                    assert corners[mine] == there[theirs], (here, side)


@dataclass
class Table:
    """A game under test, its state and the tile ids the scenario named."""

    game: FjordsGame
    state: FjordsState
    ids: dict[str, int]
    events: list[Event]

    def play(self, command: Command, seat: int, chance: Chance | None = None) -> list[Event]:
        """Decide a command and fold its events into the table's state."""
        new = decide(self.game, self.state, command, seat, chance or Chance(SEED))
        self.state = fold(self.game, new, self.state)
        self.events.extend(new)
        return new


def landscape_tile(tile_id: int, text: str) -> Tile:
    """A tile from "CORNERS" or "CORNERS symbol" (e.g. "PPPPPP friendship")."""
    corners, _, symbol = text.partition(" ")
    return make_tile(tile_id, corners, symbol=symbol or None)


def owner(value: Owner, colours: list[list[str]]) -> tuple[int, str]:
    """A piece's seat and colour: the seat's main colour unless named."""
    return value if isinstance(value, tuple) else (value, colours[value][0])


def build_table(
    board: Mapping[Hex, str],
    *,
    players: int = 2,
    variant: str = "base",
    runes: Sequence[str] = (),
    row: Sequence[str] = (),
    bag: Sequence[str] = (),
    set_aside: Sequence[str] = (),
    drawn: str | None = None,
    active: int = 0,
    stones: Mapping[Hex, str | tuple[str, int]] | None = None,
    used_runes: Mapping[int, Sequence[str]] | None = None,
    longhouses: Mapping[Hex, Owner] | None = None,
    vikings: Mapping[Hex, Owner] | None = None,
    settlement_starter: int | None = None,
    out: Sequence[int] = (),
    ended: bool = False,
) -> Table:
    """A table with tiles already on `board`, a row and a bag of tiles given by corners
    (optionally followed by a rune symbol: "PPPPPP friendship").

    Row tiles get ids 1, 2, ... in order (named "row0", "row1", ...); bag tiles follow ("bag0",
    ...), then Classic's set-aside tiles ("set_aside0", ...) and the tile in hand ("drawn");
    board tiles are starting tiles numbered from 1000. Rune `stones` (a rune, or a rune and its
    owner seat) and pieces are placed by events, `used_runes` are discarded; then Settlement
    begins with `settlement_starter` if given; `out` seats then go out, and `ended` closes the
    game.
    """
    assert_board_fits(board)
    drawn_list = [] if drawn is None else [drawn]
    texts = [*row, *bag, *set_aside, *drawn_list]
    landscape = [landscape_tile(i + 1, text) for i, text in enumerate(texts)]
    starting = tuple(
        StartingTile(make_tile(1000 + i, corners), position, 0)
        for i, (position, corners) in enumerate(board.items())
    )
    tiles = TileSet("test", True, {t.id: t for t in landscape}, starting)
    game = FjordsGame(tiles)
    colours = (
        [list(pair) for pair in EPIC_COLOURS]
        if variant == "epic"
        else [[COLOURS[s]] for s in range(players)]
    )
    events: list[Event] = [GameStarted(players, variant, tuple(runes), colours, active, 0)]
    events += [
        TilePlaced(None, s.tile.id, s.position[0], s.position[1], 0, s.tile.corners)
        for s in starting
    ]
    events += [TileDrawn(i + 1, i + 1) for i in range(len(row))]
    first_set_aside = len(row) + len(bag) + 1
    for tile in range(first_set_aside, first_set_aside + len(set_aside)):
        events += [TileDrawn(tile, tile), TileSetAside(tile)]
    if drawn is not None:
        events.append(TileDrawn(len(texts), len(texts)))
    for (q, r), stone in (stones or {}).items():
        rune, seat = (stone, None) if isinstance(stone, str) else stone
        events.append(RuneStonePlaced(rune, q, r, seat))
    for seat, spent in (used_runes or {}).items():
        events += [RuneStoneDiscarded(seat, rune, 0, 0) for rune in spent]
    for (q, r), piece in (longhouses or {}).items():
        seat, colour = owner(piece, colours)
        events.append(LonghousePlaced(seat, q, r, colour))
    for (q, r), piece in (vikings or {}).items():
        seat, colour = owner(piece, colours)
        events.append(VikingPlaced(seat, q, r, colour))
    if settlement_starter is not None:
        events.append(ExplorationEnded("all_tiles_placed", 0, settlement_starter))
        events += [PlayerOut(seat, "no_legal_placement") for seat in out]
        if ended:
            events.append(SettlementEnded())
    ids = {f"row{i}": i + 1 for i in range(len(row))}
    ids |= {f"bag{i}": len(row) + i + 1 for i in range(len(bag))}
    ids |= {f"set_aside{i}": first_set_aside + i for i in range(len(set_aside))}
    if drawn is not None:
        ids["drawn"] = len(texts)
    return Table(game, fold(game, events), ids, events)


def hexes_in_line(start: Hex, length: int, side: int = 1) -> list[Hex]:
    """`length` hexes from `start`, each across `side` of the previous (default: eastwards)."""
    line = [start]
    while len(line) < length:
        line.append(neighbour(line[-1], side))
    return line
