"""The island's geometry (decision 2 in this package's README): cells, edges, vertices.

Pointy-top axial hexes; distance from the centre d = max(|q|, |r|, |s|). The central mountain
is (0, 0); the island is every cell with d <= radius; edge hexes have d = radius; the rim
(d = radius + 1) is never entered but counts as sea around farms. The outer sea (None) touches
every edge hex and no vertex.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from contracts.games.landnam import Hex, Vertex
from domain.games.landnam.components import ISLAND_RADIUS
from domain.hexgrid import neighbours

CENTRE: Final[Hex] = (0, 0)


def ring_distance(h: Hex) -> int:
    """Steps from the central mountain."""
    q, r = h
    return max(abs(q), abs(r), abs(q + r))


ISLAND: Final[frozenset[Hex]] = frozenset(
    (q, r)
    for q in range(-ISLAND_RADIUS, ISLAND_RADIUS + 1)
    for r in range(-ISLAND_RADIUS, ISLAND_RADIUS + 1)
    if ring_distance((q, r)) <= ISLAND_RADIUS
)
EDGE_HEXES: Final[frozenset[Hex]] = frozenset(
    h for h in ISLAND if ring_distance(h) == ISLAND_RADIUS
)
RIM: Final[frozenset[Hex]] = frozenset(
    n for h in EDGE_HEXES for n in neighbours(h) if ring_distance(n) == ISLAND_RADIUS + 1
)


def edge_lines(h: Hex) -> tuple[int, ...]:
    """The edges (0..5) an edge hex lies on: one, or two for a corner hex.

    Edges run corner to corner along q = R, s = -R, r = R, q = -R, s = R, r = -R.
    """
    q, r = h
    s = -q - r
    radius = ISLAND_RADIUS
    lines = (q == radius, s == -radius, r == radius, q == -radius, s == radius, r == -radius)
    return tuple(index for index, on in enumerate(lines) if on)


def is_corner(h: Hex) -> bool:
    """A corner hex of the island (on two edges)."""
    return len(edge_lines(h)) == 2


def island_neighbours(h: Hex | None) -> tuple[Hex, ...]:
    """The island hexes one step from `h` (from the outer sea: every edge hex)."""
    if h is None:
        return tuple(sorted(EDGE_HEXES))
    return _island_neighbours(h)


@cache
def _island_neighbours(h: Hex) -> tuple[Hex, ...]:
    return tuple(n for n in neighbours(h) if n in ISLAND)


@cache
def corners(h: Hex) -> tuple[Vertex, ...]:
    """The six vertices of a hex."""
    around = list(neighbours(h))
    return tuple(_vertex(h, around[side], around[(side + 1) % 6]) for side in range(6))


def _vertex(a: Hex, b: Hex, c: Hex) -> Vertex:
    first, second, third = sorted((a, b, c))
    return (first, second, third)


@cache
def adjacent_vertices(v: Vertex) -> tuple[Vertex, ...]:
    """The three vertices sharing two cells with `v`."""
    found = []
    for index in range(3):
        a, b = (v[j] for j in range(3) if j != index)
        common = set(neighbours(a)) & set(neighbours(b))
        for other in sorted(common):
            if other != v[index]:
                found.append(_vertex(a, b, other))
    return tuple(found)


def shared_cells(v: Vertex, w: Vertex) -> tuple[Hex, ...]:
    """The two cells two adjacent vertices share."""
    return tuple(cell for cell in v if cell in w)


def is_vertex(v: Vertex) -> bool:
    """Three mutually adjacent cells, one of them on the island, given in sorted order."""
    if tuple(sorted(v)) != v or len(set(v)) != 3:
        return False
    a, b, c = v
    touching = b in neighbours(a) and c in neighbours(a) and c in neighbours(b)
    return touching and any(cell in ISLAND for cell in v)
