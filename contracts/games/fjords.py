"""Fjords wire contracts: the config, commands, events and views of the Fjords game.

Positions are pointy-top axial hexes (q, r); corners are listed clockwise from the top,
N NE SE S SW NW, as one letter each: M mountain, P plains, S sea. A rotation is a number of
60-degree clockwise turns (0 to 5) of a tile's printed corner string.

Events record facts only: the engine's `evolve` applies them without checking anything. Every
random outcome (the starting player, each tile drawn) carries the index of the draw that chose
it, so a replay needs no randomness and anyone holding the revealed seed can re-derive it:
draw k picks position `chance.below(k, len(bag))` in the bag's contents sorted by tile id.

Variants and rune stones (rule book, from "The Epic 2-player variant" on): the config names
them, `GameStarted` records them. A seat playing two colours (Epic) says which colour each piece
it places is (`colour`); a seat with one colour may leave it out. A Classic match of three games
is one stream: `MatchGameStarted` opens games 2 and 3, and the combined score is computed from
the events like every other score.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from contracts.base import Command, Event, GameConfig, View
from contracts.outcome import Outcome

Variant = Literal["base", "epic", "classic"]
RuneName = Literal["strength", "water", "journey", "horse", "friendship", "wisdom", "home"]
# The rune stones in the rule book's order; a game records its runes in this order.
RUNE_NAMES: tuple[RuneName, ...] = (
    "strength",
    "water",
    "journey",
    "horse",
    "friendship",
    "wisdom",
    "home",
)
Phase = Literal["exploration", "settlement", "ended"]
PieceKind = Literal["longhouse", "viking"]
Rotation = Annotated[int, msgspec.Meta(ge=0, le=5)]
# Bounds on what a command may name: far beyond any table the rules can build (a few dozen
# tiles), and well inside what the stored events and outcomes can hold.
Coordinate = Annotated[int, msgspec.Meta(ge=-1000, le=1000)]
TileId = Annotated[int, msgspec.Meta(ge=0, le=1000)]


class FjordsConfig(GameConfig, frozen=True, forbid_unknown_fields=True):
    """A Fjords game's options: 2 to 4 players, the variant, and the rune stones in play.

    `preset` is one of the rule book's suggested games 1 to 7 (an int, or its digits as text,
    as command lines pass it); it stands for that game's rune stones, so it cannot be combined
    with `runes`. Epic and Classic are 2-player variants; Classic uses no rune stones.
    """

    players: Annotated[int, msgspec.Meta(ge=2, le=4)]
    variant: Variant = "base"
    runes: tuple[RuneName, ...] = ()
    preset: int | str | None = None


# --- commands ---------------------------------------------------------------------------------


class PlaceTile(Command, frozen=True):
    """An Exploration turn: put row tile `tile` at (q, r), turned `rotation`, maybe a longhouse.

    Classic: the tile just drawn, or (instead of drawing) a set-aside tile. `home` puts the
    seat's Home rune stone on the tile under the longhouse (so it needs `longhouse`); `colour`
    is the longhouse's colour when the seat plays two (Epic).
    """

    tile: TileId
    q: Coordinate
    r: Coordinate
    rotation: Rotation = 0
    longhouse: bool = False
    home: bool = False
    colour: str | None = None


class PlaceViking(Command, frozen=True):
    """A Settlement turn: put a viking from the supply on the tile at (q, r)."""

    q: Coordinate
    r: Coordinate
    colour: str | None = None


class DrawTile(Command, frozen=True):
    """Classic Exploration: draw a tile from the bag to place it (rather than a set-aside one).

    A drawn tile that fits nowhere is set aside face up and the next one is drawn at once.
    """


class UseJourneyRune(Command, frozen=True):
    """Settlement, instead of a normal turn: discard the Journey rune stone, travelling by sea
    from the seat's piece at (from_q, from_r) to place a viking at (q, r), 1 to 3 tiles away."""

    from_q: Coordinate
    from_r: Coordinate
    q: Coordinate
    r: Coordinate
    colour: str | None = None


class UseHorseRune(Command, frozen=True):
    """Settlement, instead of a normal turn: discard the Horse rune stone, travelling over
    mountains from the seat's piece at (from_q, from_r) to place a viking at (q, r)."""

    from_q: Coordinate
    from_r: Coordinate
    q: Coordinate
    r: Coordinate
    colour: str | None = None


class UseWisdomRune(Command, frozen=True):
    """Settlement, instead of a normal turn: put the Wisdom rune stone on the empty space
    (rune_q, rune_r) and a viking on the tile (q, r) across it."""

    rune_q: Coordinate
    rune_r: Coordinate
    q: Coordinate
    r: Coordinate
    colour: str | None = None


FjordsCommand = PlaceTile | PlaceViking | DrawTile | UseJourneyRune | UseHorseRune | UseWisdomRune


# --- events -----------------------------------------------------------------------------------


class GameStarted(Event, frozen=True):
    """The game's options and its randomly chosen starting player (draw `first_player_draw`).

    The bag then holds every landscape tile of the tile set allowed for `players` (by the tiles'
    "3"/"4" marks; Epic: all of them); `colours[seat]` are the piece colours each seat plays,
    its main colour first. `runes` are the rune stones in play (a preset already expanded).
    """

    players: int
    variant: str
    runes: tuple[str, ...]
    colours: list[list[str]]
    first_player: int
    first_player_draw: int
    preset: int | None = None


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
    """Draw number `draw` took `tile` out of the bag and put it face up in the row (Classic: in
    the hand of the seat to act, who places it now)."""

    tile: int
    draw: int


class RowDiscarded(Event, frozen=True):
    """No row tile fitted anywhere: the row was set aside to be redrawn (decision 4 in the Fjords
    README)."""

    tiles: list[int]


class DiscardedTilesReturned(Event, frozen=True):
    """The rows set aside while redrawing went back into the bag (decision 4 in the Fjords
    README)."""

    tiles: list[int]


class TileSetAside(Event, frozen=True):
    """Classic: the tile just drawn fits nowhere, so it was set aside face up."""

    tile: int


ExplorationEndReason = Literal[
    "all_tiles_placed", "no_tile_fits", "last_drawn_tile_placed", "last_drawn_tile_set_aside"
]


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
    """Every seat is out: the game is over and scored (Classic: this game of the match)."""


class RuneStonePlaced(Event, frozen=True):
    """A rune stone now lies at (q, r): on a tile, or (Wisdom) on an empty space.

    Strength, Water and Friendship stones come from beside the table (`seat` None); Home and
    Wisdom stones from the supply of `seat`.
    """

    rune: str
    q: int
    r: int
    seat: int | None = None


class RuneStoneDiscarded(Event, frozen=True):
    """`seat` discarded its Journey or Horse rune stone, setting out from its piece at
    (from_q, from_r); the VikingPlaced that follows says where the viking went."""

    seat: int
    rune: str
    from_q: int
    from_r: int


class MatchGameStarted(Event, frozen=True):
    """Classic: game `game` (2 or 3) of the match begins on a fresh table, pieces and bag;
    `first_player` was chosen by draw `first_player_draw`. Earlier games' scores stand."""

    game: int
    first_player: int
    first_player_draw: int


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
    | TileSetAside
    | RuneStonePlaced
    | RuneStoneDiscarded
    | MatchGameStarted
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


class RuneStoneView(msgspec.Struct, frozen=True):
    """A rune stone on the table: on a tile, or (Wisdom) on the empty space at (q, r).

    `seat` and `colour` name the owner of a Home or Wisdom stone; None for the others.
    """

    rune: str
    q: int
    r: int
    seat: int | None = None
    colour: str | None = None


class SeatView(msgspec.Struct, frozen=True):
    """One seat's public situation; `runes` are the rune stones it still holds."""

    seat: int
    supply: list[SupplyView]
    vikings_placed: int
    out: bool
    runes: list[str] = []


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
    variant: str = "base"
    runes: list[str] = []
    preset: int | None = None
    rune_stones: list[RuneStoneView] = []
    # Classic: the tile drawn this turn (to be placed now) and the set-aside tiles, face up
    drawn: RowTileView | None = None
    set_aside: list[RowTileView] = []
    # Classic: which game of the match (1 to 3) and each finished game's own result
    match_game: int | None = None
    match_results: list[Outcome] = []
