"""Where a viking may land: how tiles connect, and the checks every viking placement shares.

Decision 3 in this package's README: two adjacent tiles are "connected by plains" when one of their
two shared corners is P; likewise by ocean (S) and by mountains (M). Tiles that fit agree on shared
corners, so one tile's side tells. Every viking, placed normally or with a rune stone, goes on a
placed tile with no piece on it ("there may only ever be 1 piece on a tile"), no rune stone (General
Placement Rule; decision 6 in this package's README) and plains ("contain plains").
"""

from __future__ import annotations

from functools import cache

from domain.errors import IllegalCommand
from domain.games.fjords.state import FjordsState
from domain.hexgrid import SIDE_OFFSETS, Hex


@cache
def terrain_sides(corners: str, terrain: str) -> int:
    """Sides (a bit per side) with `terrain` at one of their two corners (decision 3 in this
    package's README)."""
    mask = 0
    for side in range(6):
        if terrain in (corners[side], corners[(side + 1) % 6]):
            mask |= 1 << side
    return mask


def connected_neighbours(state: FjordsState, position: Hex, terrain: str) -> list[Hex]:
    """Placed tiles adjacent to the tile at `position` and connected to it by `terrain`."""
    q, r = position
    sides = terrain_sides(state.board[position].corners, terrain)
    return [
        (q + dq, r + dr)
        for side, (dq, dr) in enumerate(SIDE_OFFSETS)
        if sides >> side & 1 and (q + dq, r + dr) in state.board
    ]


def connected_reach(
    state: FjordsState, start: Hex, terrain: str, max_steps: int | None = None
) -> dict[Hex, int]:
    """Placed tiles joined to `start` through a chain of placed tiles, each consecutive pair
    connected by `terrain`, with the fewest steps to each (at most `max_steps`; None: any).

    Tiles on the way may hold pieces or rune stones; `start` itself is left out.
    """
    reached = {start: 0}
    frontier = [start]
    steps = 0
    while frontier and (max_steps is None or steps < max_steps):
        steps += 1
        following = []
        for position in frontier:
            for there in connected_neighbours(state, position, terrain):
                if there not in reached:
                    reached[there] = steps
                    following.append(there)
        frontier = following
    del reached[start]
    return reached


def plains_neighbours(state: FjordsState, position: Hex) -> list[Hex]:
    """Placed tiles adjacent to `position` and connected to it by plains (decision 3 in this
    package's README)."""
    return connected_neighbours(state, position, "P")


def own_piece_at(state: FjordsState, position: Hex, seat: int) -> bool:
    """Whether one of the seat's vikings or longhouses (any of its colours) is on the tile."""
    piece = state.pieces.get(position)
    return piece is not None and piece.seat == seat


def check_target(state: FjordsState, position: Hex) -> None:
    """Raise IllegalCommand unless a viking may stand on the tile at `position` at all."""
    where = {"q": position[0], "r": position[1]}
    placed = state.board.get(position)
    if placed is None:
        raise IllegalCommand(
            "fjords.viking.no_tile", "Vikings go on landscape tiles; that space is empty.", **where
        )
    if position in state.pieces:
        raise IllegalCommand(
            "fjords.viking.tile_occupied", "There may only ever be one piece on a tile.", **where
        )
    stone = state.rune_stones.get(position)
    if stone is not None:
        raise IllegalCommand(
            "fjords.viking.rune_stone_tile",
            f"The {stone.rune} rune stone lies on that tile, and no viking may share a tile "
            "with a rune stone (General Placement Rule).",
            rune=stone.rune,
            **where,
        )
    if "P" not in placed.corners:
        raise IllegalCommand(
            "fjords.viking.needs_plains", "A viking must go on a tile with plains.", **where
        )
