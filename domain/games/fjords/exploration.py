"""The Exploration Phase: the row, the tile turn, the redraw and the phase's end.

Rule book, "Taking a turn during the Exploration Phase": choose a
tile from the face-up row of 4, add it to the play area, optionally put a longhouse from your
supply on it (only on plains), then draw a tile from the bag into the row. With the bag empty,
play goes on with fewer than 4 tiles in the row.

Rune stones join the tile as it is added (`runes`); the Classic variant draws and places
instead of keeping a row (`classic`), sharing the checks and `lay_tile` here.
"""

from __future__ import annotations

from contracts.games.fjords import (
    DiscardedTilesReturned,
    ExplorationEnded,
    LonghousePlaced,
    PlaceTile,
    RowDiscarded,
    TileDrawn,
    TilePlaced,
)
from domain.chance import Chance
from domain.errors import IllegalCommand
from domain.games.fjords.board import check_placement, fits_somewhere, open_slots
from domain.games.fjords.colours import choose_colour
from domain.games.fjords.evolve import Recorder
from domain.games.fjords.runes import check_home_rune, check_longhouse_tile, place_tile_stones
from domain.games.fjords.settlement import start_settlement_turn
from domain.games.fjords.state import FjordsState
from domain.games.fjords.tiles import TileSet

ROW_SIZE = 4


def draw_tile(record: Recorder, chance: Chance) -> None:
    """Draw a uniformly chosen tile from the bag (sorted by id) into the row."""
    state = record.state
    index = chance.below(state.draws_used, len(state.bag))
    record.emit(TileDrawn(state.bag[index], state.draws_used))


def check_tile_available(state: FjordsState, tile: int) -> None:
    """Raise IllegalCommand unless the seat to act may place `tile` now.

    Rule book, step 1: "choose any tile from the row". Classic variant: the tile just drawn;
    "a player may now choose to place a set-aside tile instead of drawing a new landscape tile
    at the start of their turn".
    """
    if state.variant != "classic":
        if tile not in state.row:
            raise IllegalCommand(
                "fjords.tile.not_in_row",
                f"Tile {tile} is not in the face-up row; choose one of {state.row}.",
                tile=tile,
                row=list(state.row),
            )
    elif state.drawn is not None and tile != state.drawn:
        raise IllegalCommand(
            "fjords.tile.not_drawn",
            f"You drew tile {state.drawn}: place that one (a set-aside tile may only be placed "
            "instead of drawing).",
            tile=tile,
            drawn=state.drawn,
        )
    elif state.drawn is None and tile not in state.set_aside:
        raise IllegalCommand(
            "fjords.tile.not_available",
            f"Tile {tile} is not set aside: draw a tile, or place one of the set-aside tiles "
            f"{state.set_aside}.",
            tile=tile,
            set_aside=list(state.set_aside),
        )


def check_place_tile(
    state: FjordsState, command: PlaceTile, seat: int, tiles: TileSet
) -> str | None:
    """The colour of the longhouse to place (None: no longhouse), or IllegalCommand naming the
    first Exploration rule the command breaks.

    Step 1: the tile (`check_tile_available`); placement: `board.check_placement`; step 2: "you may
    place 1 of the longhouses in your supply", on plains: "you may not place a longhouse on the
    all-mountain tile" (the French copy: on the green plains part of the tile), and not on a tile
    receiving a rune stone (decision 6 in this package's README); the Home rune
    (`runes.check_home_rune`).
    """
    check_tile_available(state, command.tile)
    if not 0 <= command.rotation <= 5:
        raise IllegalCommand(
            "fjords.tile.bad_rotation",
            f"A rotation is 0 to 5 turns of 60 degrees, not {command.rotation}.",
            rotation=command.rotation,
        )
    tile = tiles.tile(command.tile)
    check_placement(state.board, tile, (command.q, command.r), command.rotation)
    check_home_rune(state, command, seat)
    if not command.longhouse:
        return None
    if state.longhouses_left(seat) == 0:
        raise IllegalCommand("fjords.longhouse.none_left", "You have no longhouses left.")
    if not tile.has_plains:
        raise IllegalCommand(
            "fjords.longhouse.needs_plains",
            "Longhouses are placed on plains; this tile has none.",
            tile=tile.id,
        )
    check_longhouse_tile(state, tile)
    return choose_colour(state, seat, "longhouse", command.colour)


def lay_tile(
    record: Recorder, command: PlaceTile, seat: int, longhouse: str | None, tiles: TileSet
) -> None:
    """Emit a checked tile placement: the tile, its rune stone, the longhouse of that colour.

    Symmetric tiles look the same under several rotations; the event records the smallest.
    """
    tile = tiles.tile(command.tile)
    orientation = tile.orientation(command.rotation)
    q, r = command.q, command.r
    record.emit(TilePlaced(seat, command.tile, q, r, orientation.rotation, orientation.corners))
    place_tile_stones(record, command, seat, tile)
    if longhouse is not None:
        record.emit(LonghousePlaced(seat, q, r, longhouse))


def place_tile(
    record: Recorder,
    command: PlaceTile,
    seat: int,
    longhouse: str | None,
    chance: Chance,
    tiles: TileSet,
) -> None:
    """Emit a checked Exploration turn: the tile, the longhouse, the refill, what follows."""
    lay_tile(record, command, seat, longhouse, tiles)
    if record.state.bag:
        draw_tile(record, chance)
    start_exploration_turn(record, chance, tiles)


def start_exploration_turn(record: Recorder, chance: Chance, tiles: TileSet) -> None:
    """Make sure the seat to act can place a row tile, or end Exploration (decision 4 in this
    package's README).

    Rule book: "Once the Exploration Phase has completed ... the first turn of the Settlement
    Phase is played by the player to the left of whoever placed the final tile ... if on a
    player's turn all remaining tiles were unplaceable, they would begin the settlement phase."
    Both are the seat whose turn it now is.

    The redraw: if no row tile fits anywhere, the row is set aside and 4 tiles are drawn, again
    while none fits; the set-aside tiles return to the bag once a row with a fitting tile is
    out. Keeping them out until then (the rule book returns each row at once) is what makes the
    procedure end: it is only entered when some bag tile fits, and each round removes up to 4
    unfitting tiles from the bag. If no tile in the row or the bag fits, Exploration ends.
    """
    state = record.state
    assert state.active is not None
    if not state.row and not state.bag:
        record.emit(ExplorationEnded("all_tiles_placed", 0, state.active))
        start_settlement_turn(record)
        return
    slots = open_slots(state.board)

    def row_fits() -> bool:
        return any(fits_somewhere(tiles.tile(t), slots) for t in state.row)

    if row_fits():
        return
    if not any(fits_somewhere(tiles.tile(t), slots) for t in state.bag):
        record.emit(ExplorationEnded("no_tile_fits", len(state.row) + len(state.bag), state.active))
        start_settlement_turn(record)
        return
    while not row_fits():
        record.emit(RowDiscarded(list(state.row)))
        for _ in range(min(ROW_SIZE, len(state.bag))):
            draw_tile(record, chance)
    record.emit(DiscardedTilesReturned(sorted(state.discarded)))
