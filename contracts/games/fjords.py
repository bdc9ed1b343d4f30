"""Fjords wire contracts: the config, commands, events and views of the Fjords game.

Positions are pointy-top axial hexes (q, r); corners are listed clockwise from the top,
N NE SE S SW NW, as one letter each: M mountain, P plains, S sea. A rotation is a number of
60-degree clockwise turns (0 to 5) of a tile's printed corner string.

Events record facts only: the engine's `evolve` applies them without checking anything. Every
random outcome (the starting player, each tile drawn) carries the index of the draw that chose
it, so a replay needs no randomness and anyone holding the revealed seed can re-derive it:
draw k picks position `chance.below(k, len(bag))` in the bag's contents sorted by tile id.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from contracts.base import Command, Event, GameConfig, View
from contracts.outcome import Outcome

Variant = Literal["base", "epic", "classic"]
RuneName = Literal["strength", "water", "journey", "horse", "friendship", "wisdom", "home"]
Phase = Literal["exploration", "settlement", "ended"]
PieceKind = Literal["longhouse", "viking"]
Rotation = Annotated[int, msgspec.Meta(ge=0, le=5)]


class FjordsConfig(GameConfig, frozen=True, forbid_unknown_fields=True):
    """A Fjords game's options: 2 to 4 players; the variant and rune stones (issue 3)."""

    players: Annotated[int, msgspec.Meta(ge=2, le=4)]
    variant: Variant = "base"
    runes: tuple[RuneName, ...] = ()


# --- commands ---------------------------------------------------------------------------------


class PlaceTile(Command, frozen=True):
    """An Exploration turn: put row tile `tile` at (q, r), turned `rotation`, maybe a longhouse."""

    tile: int
    q: int
    r: int
    rotation: Rotation = 0
    longhouse: bool = False


class PlaceViking(Command, frozen=True):
    """A Settlement turn: put a viking from the supply on the tile at (q, r)."""

    q: int
    r: int


FjordsCommand = PlaceTile | PlaceViking


# --- events -----------------------------------------------------------------------------------


class GameStarted(Event, frozen=True):
    """The game's options and its randomly chosen starting player (draw `first_player_draw`).

    The bag then holds every landscape tile of the tile set allowed for `players` (by the tiles'
    "3"/"4" marks); `colours[seat]` are the piece colours each seat plays.
    """

    players: int
    variant: str
    runes: tuple[str, ...]
    colours: list[list[str]]
    first_player: int
    first_player_draw: int


class TilePlaced(Event, frozen=True):
    """A tile now lies at (q, r) showing `corners` (N..NW, after rotation).

    `seat` is None for the three starting tiles.
    """

    seat: int | None
    tile: int
    q: int
    r: int
    rotation: int
    corners: str


class LonghousePlaced(Event, frozen=True):
    """A seat put a longhouse of `colour` from its supply on the tile at (q, r)."""

    seat: int
    q: int
    r: int
    colour: str


class TileDrawn(Event, frozen=True):
    """Draw number `draw` took `tile` out of the bag and put it face up in the row."""

    tile: int
    draw: int


class RowDiscarded(Event, frozen=True):
    """No row tile fitted anywhere: the row was set aside to be redrawn (decision 4)."""

    tiles: list[int]


class DiscardedTilesReturned(Event, frozen=True):
    """The rows set aside while redrawing went back into the bag (decision 4)."""

    tiles: list[int]


ExplorationEndReason = Literal["all_tiles_placed", "no_tile_fits"]


class ExplorationEnded(Event, frozen=True):
    """Exploration is over; `settlement_starter` takes the first Settlement turn."""

    reason: ExplorationEndReason
    tiles_left: int
    settlement_starter: int


class VikingPlaced(Event, frozen=True):
    """A seat put a viking of `colour` from its supply on the tile at (q, r)."""

    seat: int
    q: int
    r: int
    colour: str


OutReason = Literal["no_vikings_left", "no_legal_placement"]


class PlayerOut(Event, frozen=True):
    """A seat could place no more vikings and is out: its turns are skipped from now on."""

    seat: int
    reason: OutReason


class SettlementEnded(Event, frozen=True):
    """Every seat is out: the game is over and scored."""


FjordsEvent = (
    GameStarted
    | TilePlaced
    | LonghousePlaced
    | TileDrawn
    | RowDiscarded
    | DiscardedTilesReturned
    | ExplorationEnded
    | VikingPlaced
    | PlayerOut
    | SettlementEnded
)


# --- views ------------------------------------------------------------------------------------


class BoardTileView(msgspec.Struct, frozen=True):
    """A placed tile: where, which, how it is turned, and the terrain on its corners."""

    tile: int
    q: int
    r: int
    rotation: int
    corners: str
    symbol: str | None = None


class RowTileView(msgspec.Struct, frozen=True):
    """A face-up tile in the row, with its corners as printed (rotation 0)."""

    tile: int
    corners: str
    mark: str | None = None
    symbol: str | None = None


class PieceView(msgspec.Struct, frozen=True):
    """A piece on a tile: a longhouse or a viking, its owner seat and its colour."""

    kind: PieceKind
    seat: int
    colour: str
    q: int
    r: int


class SupplyView(msgspec.Struct, frozen=True):
    """The pieces of one colour a seat still holds."""

    colour: str
    vikings: int
    longhouses: int


class SeatView(msgspec.Struct, frozen=True):
    """One seat's public situation."""

    seat: int
    supply: list[SupplyView]
    vikings_placed: int
    out: bool


class FjordsView(View, frozen=True):
    """Everything a client needs to draw the table, and nothing hidden (no bag content)."""

    viewer: int | None
    phase: Phase
    to_act: list[int]
    first_player: int
    tiles: list[BoardTileView]
    pieces: list[PieceView]
    row: list[RowTileView]
    bag_size: int
    seats: list[SeatView]
    settlement_starter: int | None = None
    outcome: Outcome | None = None
