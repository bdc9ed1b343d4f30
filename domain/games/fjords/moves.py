"""Listing commands: every legal one (for clients, bots and audit) and plausible others.

Symmetric tiles look the same under several rotations (an all-plains tile under all six). Such
rotations are one placement, so `legal_commands` lists each distinct placement once, under the
smallest rotation giving it (`tiles.Orientation`); `decide` accepts any of the equivalent
rotations and records the smallest, so no equivalent rotation is ever refused.
"""

from __future__ import annotations

from contracts.base import Command
from contracts.games.fjords import PlaceTile, PlaceViking
from domain.games.fjords.board import open_slots, placements
from domain.games.fjords.settlement import viking_targets
from domain.games.fjords.state import FjordsState
from domain.games.fjords.tiles import TileSet
from domain.hexgrid import SIDE_OFFSETS, Hex

FAR_AWAY: Hex = (40, -40)


def legal_commands(state: FjordsState, seat: int, tiles: TileSet) -> list[Command]:
    """Every legal command of `seat`: each row tile at each fitting position and orientation,
    with and without a longhouse; or each tile a viking may go to. Empty when not its turn."""
    if seat != state.active or state.phase == "ended":
        return []
    if state.phase == "settlement":
        if state.vikings_left(seat) == 0:
            return []
        return [PlaceViking(q, r) for q, r in viking_targets(state, seat)]
    slots = open_slots(state.board)
    longhouse_allowed = state.longhouses_left(seat) > 0
    commands: list[Command] = []
    for tile in map(tiles.tile, state.row):
        with_longhouse = longhouse_allowed and tile.has_plains
        for slot, orientation in placements(tile, slots):
            q, r = slot.position
            commands.append(PlaceTile(tile.id, q, r, orientation.rotation, False))
            if with_longhouse:
                commands.append(PlaceTile(tile.id, q, r, orientation.rotation, True))
    return commands


def candidate_commands(state: FjordsState, seat: int, tiles: TileSet) -> list[Command]:
    """Legal and near-legal commands: every row tile (and two others) at every free space next
    to the board, occupied spaces and a far one, in every distinct orientation, with and without
    a longhouse (plus an out-of-range rotation); and a viking on every tile and nearby spaces."""
    near: set[Hex] = set()
    for q, r in state.board:
        near.update((q + dq, r + dr) for dq, dr in SIDE_OFFSETS)
    spaces = sorted(near | {FAR_AWAY})
    others = [t for t in sorted(tiles.landscape) if t not in state.row][:1]
    others += [placed.tile for placed in list(state.board.values())[-1:]]
    commands: list[Command] = []
    for tile in map(tiles.tile, [*state.row, *others]):
        commands.append(PlaceTile(tile.id, 0, 0, 6))
        for q, r in spaces:
            for orientation in tile.orientations:
                commands.append(PlaceTile(tile.id, q, r, orientation.rotation, False))
                commands.append(PlaceTile(tile.id, q, r, orientation.rotation, True))
    commands.extend(PlaceViking(q, r) for q, r in spaces)
    return commands
