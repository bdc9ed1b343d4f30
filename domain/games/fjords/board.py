"""Board geometry and the tile placement rules of the Exploration Phase.

Rule book, Exploration Phase: "The tile must be placed so that it touches 2 or more tiles
already in play"; all its terrain "must match the terrain on the tiles it is laying against at
the edges"; it "must not ... create a second landmass", even if that could be joined later; a
"hole" in the play area is fine, and so is plains cut off by a mountain range.

Corner matching (this package's README, Data provenance): two tiles fit across a side when both
shared corners agree. Second landmass (decision 2 in this package's README): every land region must
be connected to the others through shared land corners. The board before a placement is one
landmass, so a placement keeps it one exactly when each land region of the new tile shares a corner
with a placed tile (the corners agree, so that neighbour's corner is land too).

A free position is summed up once as a `Slot`: which corner terrains its placed neighbours
impose (a bit mask and value over the two-bit corner codes of `tiles.corner_code`) and which
corners it shares with them. A tile orientation then fits with two integer tests.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache

from domain.errors import IllegalCommand
from domain.games.fjords.state import PlacedTile
from domain.games.fjords.tiles import TERRAIN_CODE, Orientation, Tile
from domain.hexgrid import CORNER_NAMES, SIDE_OFFSETS, Hex, facing_corners, neighbour

Board = Mapping[Hex, PlacedTile]
TERRAIN_NAMES = {"M": "mountains", "P": "plains", "S": "sea"}


@dataclass(frozen=True, slots=True)
class Slot:
    """What the placed neighbours of a free position require of a tile put there."""

    position: Hex
    touching: int  # placed neighbours
    mask: int  # two bits set per corner that a neighbour constrains
    value: int  # the required terrain codes on those corners
    touched: int  # corners shared with placed neighbours, one bit each


def _side_constants(side: int) -> tuple[int, int]:
    """The code mask and touched-corner bits of the two corners a slot shares across `side`."""
    (mine_a, _), (mine_b, _) = facing_corners(side)
    return (3 << (2 * mine_a)) | (3 << (2 * mine_b)), (1 << mine_a) | (1 << mine_b)


_SIDE_MASKS, _SIDE_TOUCHED = zip(*map(_side_constants, range(6)), strict=True)


@cache
def _facing_values(corners: str) -> tuple[int, ...]:
    """For a placed tile with these corners: what it requires of a slot across each side of
    that slot (side k of the slot faces this tile), as corner codes."""
    values = []
    for side in range(6):
        (mine_a, theirs_a), (mine_b, theirs_b) = facing_corners(side)
        values.append(
            (TERRAIN_CODE[corners[theirs_a]] << (2 * mine_a))
            | (TERRAIN_CODE[corners[theirs_b]] << (2 * mine_b))
        )
    return tuple(values)


def slot_at(board: Board, position: Hex) -> Slot:
    """The requirements at `position` (free or not: callers check occupancy)."""
    q, r = position
    touching = mask = value = touched = 0
    for side, (dq, dr) in enumerate(SIDE_OFFSETS):
        placed = board.get((q + dq, r + dr))
        if placed is not None:
            touching += 1
            mask |= _SIDE_MASKS[side]
            value |= _facing_values(placed.corners)[side]
            touched |= _SIDE_TOUCHED[side]
    return Slot(position, touching, mask, value, touched)


def open_slots(board: Board) -> list[Slot]:
    """Every free position touching at least two placed tiles, in a stable order."""
    counts: dict[Hex, int] = {}
    for q, r in board:
        for dq, dr in SIDE_OFFSETS:
            spot = (q + dq, r + dr)
            if spot not in board:
                counts[spot] = counts.get(spot, 0) + 1
    return [slot_at(board, spot) for spot in sorted(counts) if counts[spot] >= 2]


def fits(orientation: Orientation, slot: Slot) -> bool:
    """Corners agree with every neighbour and every land region joins the landmass."""
    if orientation.code & slot.mask != slot.value:
        return False
    touched = slot.touched
    return all(region & touched for region in orientation.land_regions)


def placements(tile: Tile, slots: Iterable[Slot]) -> Iterator[tuple[Slot, Orientation]]:
    """Every (slot, orientation) where the tile may legally be placed."""
    for slot in slots:
        for orientation in tile.orientations:
            if fits(orientation, slot):
                yield slot, orientation


def fits_somewhere(tile: Tile, slots: Iterable[Slot]) -> bool:
    """Whether the tile has at least one legal placement among `slots`."""
    return next(placements(tile, slots), None) is not None


def check_placement(board: Board, tile: Tile, position: Hex, rotation: int) -> Orientation:
    """The orientation to place, or IllegalCommand naming the first placement rule broken."""
    where = {"q": position[0], "r": position[1]}
    if position in board:
        raise IllegalCommand(
            "fjords.tile.position_occupied", "A tile already lies on that space.", **where
        )
    slot = slot_at(board, position)
    if slot.touching < 2:
        raise IllegalCommand(
            "fjords.tile.touches_fewer_than_two",
            f"A new tile must touch at least 2 tiles already in play; this space touches "
            f"{slot.touching}.",
            touching=slot.touching,
            **where,
        )
    orientation = tile.orientation(rotation)
    wrong = (orientation.code & slot.mask) ^ slot.value
    if wrong:
        raise _corner_mismatch(board, position, orientation, _first_corner(wrong))
    for region in orientation.land_regions:
        if not region & slot.touched:
            corners = [CORNER_NAMES[k] for k in range(6) if region >> k & 1]
            raise IllegalCommand(
                "fjords.tile.second_landmass",
                "That placement would create a second landmass: the land at corners "
                f"{', '.join(corners)} touches no land already in play.",
                corners=corners,
                **where,
            )
    return orientation


def _first_corner(code_bits: int) -> int:
    """The first corner (N..NW) whose two code bits are set in `code_bits`."""
    return next(k for k in range(6) if code_bits >> (2 * k) & 3)


def _corner_mismatch(
    board: Board, position: Hex, orientation: Orientation, corner: int
) -> IllegalCommand:
    """The refusal for a corner that disagrees with a neighbour, naming both corners."""
    q, r = position
    # Corner k lies on sides k-1 and k; either placed neighbour there shows the same terrain.
    side = next(s for s in ((corner - 1) % 6, corner) if neighbour(position, s) in board)
    there = neighbour(position, side)
    theirs = next(t for mine, t in facing_corners(side) if mine == corner)
    want, got = board[there].corners[theirs], orientation.corners[corner]
    return IllegalCommand(
        "fjords.tile.corner_mismatch",
        f"The terrain does not match: this tile's {CORNER_NAMES[corner]} corner shows "
        f"{TERRAIN_NAMES[got]}, but the tile at ({there[0]}, {there[1]}) shows "
        f"{TERRAIN_NAMES[want]} at its {CORNER_NAMES[theirs]} corner there.",
        q=q,
        r=r,
        corner=CORNER_NAMES[corner],
        neighbour_q=there[0],
        neighbour_r=there[1],
        neighbour_corner=CORNER_NAMES[theirs],
        expected=want,
        found=got,
    )
