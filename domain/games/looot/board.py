"""The main board: landscape faces, the ocean board and the trophy board joined into one.

The pictures and the per-player-count layouts are data (layouts.json, from the component data;
this package's README, Data provenance); how the faces join is this project's choice
(decision 1 in this package's README). A board never changes during play: states share it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from contracts.games.looot import Hex, Tile
from domain.games.looot.components import BUILDINGS, load_json, tiles_from_letters
from domain.hexgrid import even_q_to_axial, neighbours

OCEAN: Final = "O"
NO_HEX: Final = "."


@dataclass(frozen=True)
class Board:
    """The fixed geometry of one game's main board."""

    land: Mapping[Hex, Tile]  # every land space and the resource or building it shows
    ocean: tuple[Hex, ...]  # the ocean space of each Longship slot
    neighbours: Mapping[Hex, tuple[Hex, ...]]  # the land spaces around each land space
    shore: tuple[tuple[Hex, ...], ...]  # per slot, the land spaces touching its ocean space

    def is_building(self, space: Hex) -> bool:
        """Whether a land space is a House, Watchtower or Castle."""
        return self.land.get(space) in BUILDINGS


def parse_picture(rows: Iterable[str]) -> list[tuple[Hex, str]]:
    """The (axial hex, letter) of a flat-top even-q picture, in reading order; `.` is no hex."""
    return [
        (even_q_to_axial(col, row), letter)
        for row, line in enumerate(rows)
        for col, letter in enumerate(line)
        if letter != NO_HEX
    ]


def board_from_cells(cells: Iterable[tuple[Hex, str]]) -> Board:
    """A board from letters per hex (O: an ocean space; slots numbered in the given order)."""
    land: dict[Hex, Tile] = {}
    ocean: list[Hex] = []
    for space, letter in cells:
        if space in land or space in ocean:
            raise ValueError(f"two pieces of the board cover hex {space}")
        if letter == OCEAN:
            ocean.append(space)
        else:
            land[space] = tiles_from_letters(letter)[0]
    around = {space: tuple(n for n in neighbours(space) if n in land) for space in land}
    shore = tuple(tuple(n for n in neighbours(slot) if n in land) for slot in ocean)
    return Board(land=land, ocean=tuple(ocean), neighbours=around, shore=shore)


def board_from_picture(rows: Iterable[str]) -> Board:
    """A board drawn as one even-q picture (for small boards in tests and tools)."""
    return board_from_cells(parse_picture(rows))


_DATA: Final[dict[str, Any]] = load_json("layouts.json")
FACES: Final[tuple[int, ...]] = tuple(sorted(int(face) for face in _DATA["faces"]))


def physical_board(face: int) -> int:
    """The double-sided landscape board carrying a face: board k has faces 2k-1 and 2k."""
    return (face + 1) // 2


def _placed(rows: list[str], piece: Mapping[str, Any]) -> list[tuple[Hex, str]]:
    """A piece's cells moved to its place in a layout (after a half turn if `turned`)."""
    sign = -1 if piece.get("turned", False) else 1
    dq, dr = piece["at"]
    return [((sign * q + dq, sign * r + dr), letter) for (q, r), letter in parse_picture(rows)]


@cache
def assemble(faces: tuple[int, ...]) -> Board:
    """The main board for these faces, one per layout slot, with the ocean and trophy boards."""
    layout = _DATA["layouts"][str(len(faces))]
    cells: list[tuple[Hex, str]] = []
    for face, piece in zip(faces, layout["faces"], strict=True):
        cells += _placed(_DATA["faces"][str(face)], piece)
    cells += _placed(_DATA["ocean_board"], layout["ocean_board"])
    cells += _placed(_DATA["trophy_board"], layout["trophy_board"])
    return board_from_cells(cells)


def face_picture(face: int) -> list[str]:
    """The even-q picture of a landscape face (for data checks)."""
    return list(_DATA["faces"][str(face)])
