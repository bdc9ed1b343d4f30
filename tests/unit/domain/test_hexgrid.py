"""The hex grid's sides, corners and rotations agree with the geometry of the tiles."""

from __future__ import annotations

from domain.hexgrid import (
    axial_to_even_q,
    distance,
    even_q_to_axial,
    facing_corners,
    neighbour,
    neighbours,
    opposite,
    rotate_corners,
)


def test_every_side_leads_back_through_the_opposite_side() -> None:
    for side in range(6):
        assert neighbour(neighbour((2, -1), side), opposite(side)) == (2, -1)


def test_facing_corners_are_symmetric() -> None:
    for side in range(6):
        back = {(theirs, mine) for mine, theirs in facing_corners(opposite(side))}
        assert set(facing_corners(side)) == back


def test_the_starting_tiles_fit_together() -> None:
    # A = PSPPMM at (0,0), B = MPPPPP at (-1,1), C = PPPPPP at (0,1): the 2005 layout.
    tiles = {(0, 0): "PSPPMM", (-1, 1): "MPPPPP", (0, 1): "PPPPPP"}
    for here, corners in tiles.items():
        for side in range(6):
            there = neighbour(here, side)
            if there in tiles:
                for mine, theirs in facing_corners(side):
                    assert corners[mine] == tiles[there][theirs], (here, side)


def test_rotating_clockwise_turns_the_corner_string_right() -> None:
    assert rotate_corners("PSPPMM", 1) == "MPSPPM"
    assert rotate_corners("PSPPMM", 6) == "PSPPMM"
    assert rotate_corners(rotate_corners("MMPSSP", 2), 4) == "MMPSSP"


def test_distance_and_neighbours() -> None:
    assert all(distance((0, 0), h) == 1 for h in neighbours((0, 0)))
    assert distance((0, 0), (2, -1)) == 2


def test_even_q_offset_round_trip_and_adjacency() -> None:
    for col in range(7):
        for row in range(7):
            assert axial_to_even_q(even_q_to_axial(col, row)) == (col, row)
    # In even-q the odd column sits higher: (1, 0) touches (0, 0) and (2, 0), not (0, 1).
    a = even_q_to_axial(1, 0)
    assert distance(a, even_q_to_axial(0, 0)) == 1
    assert distance(a, even_q_to_axial(2, 0)) == 1
    assert distance(a, even_q_to_axial(0, 1)) == 2
