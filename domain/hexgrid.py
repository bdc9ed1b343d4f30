"""Hexagon grids in axial coordinates (q, r), shared by the games.

Adjacency in axial coordinates is the same for pointy-top and flat-top layouts; the side and
corner numbering below is for pointy-top hexes (Fjords): corners clockwise from the top,
0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW; side k joins corner k and corner k+1:
0 NE, 1 E, 2 SE, 3 SW, 4 W, 5 NW.
"""

from __future__ import annotations

from collections.abc import Iterator

Hex = tuple[int, int]

# Neighbour offset across each side of a pointy-top hex, side 0 (NE) to side 5 (NW).
SIDE_OFFSETS: tuple[Hex, ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
SIDE_NAMES: tuple[str, ...] = ("NE", "E", "SE", "SW", "W", "NW")
CORNER_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")


def neighbour(h: Hex, side: int) -> Hex:
    """The hex across `side` of `h`."""
    dq, dr = SIDE_OFFSETS[side]
    return (h[0] + dq, h[1] + dr)


def neighbours(h: Hex) -> Iterator[Hex]:
    """The six hexes around `h`, side 0 to side 5."""
    q, r = h
    for dq, dr in SIDE_OFFSETS:
        yield (q + dq, r + dr)


def opposite(side: int) -> int:
    """The side of the neighbour that faces `side`."""
    return (side + 3) % 6


def side_corners(side: int) -> tuple[int, int]:
    """The two corners a side joins, clockwise."""
    return side, (side + 1) % 6


def facing_corners(side: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """Pairs (own corner, neighbour's corner) that coincide across `side`.

    Own corner k meets the neighbour's corner k+4 and own corner k+1 meets its corner k+3.
    """
    return (side, (side + 4) % 6), ((side + 1) % 6, (side + 3) % 6)


def distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate_corners(corners: str, rotation: int) -> str:
    """Corners after turning a tile `rotation` x 60 degrees clockwise (the string turns right)."""
    k = rotation % 6
    return corners[-k:] + corners[:-k] if k else corners


def even_q_to_axial(col: int, row: int) -> Hex:
    """Flat-top "even-q" offset (even columns sit half a hex lower) to axial."""
    return (col, row - (col + (col & 1)) // 2)


def axial_to_even_q(h: Hex) -> tuple[int, int]:
    """Axial to flat-top "even-q" offset (col, row)."""
    q, r = h
    return (q, r + (q + (q & 1)) // 2)
