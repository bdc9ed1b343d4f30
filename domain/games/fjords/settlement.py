"""The Settlement Phase: where a viking may go, who is out, and when the phase ends.

Rule book, "Taking a turn during the Settlement Phase": place a viking from your supply on a
vacant landscape tile that is adjacent to a tile with one of your longhouses or vikings, has no
piece on it, contains plains, and is connected to that adjacent piece of yours by plains.
Two adjacent tiles are connected by plains when one of their two shared corners is P
(decision 3). A player who cannot place a viking is out and skipped from then on; the phase
ends when all players are out.
"""

from __future__ import annotations

from contracts.games.fjords import PlaceViking, PlayerOut, SettlementEnded, VikingPlaced
from domain.errors import IllegalCommand
from domain.games.fjords.board import plains_sides
from domain.games.fjords.evolve import Recorder
from domain.games.fjords.state import FjordsState
from domain.hexgrid import SIDE_OFFSETS, Hex


def is_vacant(state: FjordsState, position: Hex) -> bool:
    """A placed tile with no piece on it (rune stones will block tiles too: decision 6)."""
    return position in state.board and position not in state.pieces


def plains_neighbours(state: FjordsState, position: Hex) -> list[Hex]:
    """Placed tiles adjacent to `position` and connected to it by plains (decision 3)."""
    q, r = position
    sides = plains_sides(state.board[position].corners)
    return [
        (q + dq, r + dr)
        for side, (dq, dr) in enumerate(SIDE_OFFSETS)
        if sides >> side & 1 and (q + dq, r + dr) in state.board
    ]


def viking_targets(state: FjordsState, seat: int) -> list[Hex]:
    """Every tile where `seat` may place a viking now (ignoring its supply), sorted."""
    targets: set[Hex] = set()
    for position, piece in state.pieces.items():
        if piece.seat == seat:
            targets.update(h for h in plains_neighbours(state, position) if is_vacant(state, h))
    return sorted(targets)


def check_viking(state: FjordsState, command: PlaceViking, seat: int) -> None:
    """Raise IllegalCommand naming the first Settlement rule the placement breaks."""
    position = (command.q, command.r)
    where = {"q": command.q, "r": command.r}
    if state.vikings_left(seat) == 0:
        raise IllegalCommand("fjords.viking.none_left", "You have no vikings left to place.")
    if position not in state.board:
        raise IllegalCommand(
            "fjords.viking.no_tile", "Vikings go on landscape tiles; that space is empty.", **where
        )
    if position in state.pieces:
        raise IllegalCommand(
            "fjords.viking.tile_occupied", "There may only ever be one piece on a tile.", **where
        )
    q, r = position
    own_adjacent = [
        (q + dq, r + dr)
        for dq, dr in SIDE_OFFSETS
        if (piece := state.pieces.get((q + dq, r + dr))) is not None and piece.seat == seat
    ]
    if not own_adjacent:
        raise IllegalCommand(
            "fjords.viking.not_adjacent",
            "A viking must go next to one of your longhouses or vikings.",
            **where,
        )
    if "P" not in state.board[position].corners:
        raise IllegalCommand(
            "fjords.viking.needs_plains", "A viking must go on a tile with plains.", **where
        )
    connected = set(plains_neighbours(state, position))
    if not connected.intersection(own_adjacent):
        raise IllegalCommand(
            "fjords.viking.not_connected_by_plains",
            "That tile is next to your pieces but cut off from them: no plains run between "
            "them (mountains or sea are in the way).",
            adjacent_own_pieces=[list(h) for h in own_adjacent],
            **where,
        )


def place_viking(record: Recorder, command: PlaceViking, seat: int) -> None:
    """Emit the viking placement, then move on to the next seat that can still place."""
    state = record.state
    colour = next(s.colour for s in state.supplies[seat] if s.vikings > 0)
    record.emit(VikingPlaced(seat, command.q, command.r, colour))
    start_settlement_turn(record)


def start_settlement_turn(record: Recorder) -> None:
    """Put out every seat in turn order that cannot place, until one can or all are out."""
    state = record.state
    while state.active is not None:
        seat = state.active
        if state.vikings_left(seat) == 0:
            record.emit(PlayerOut(seat, "no_vikings_left"))
        elif not viking_targets(state, seat):
            record.emit(PlayerOut(seat, "no_legal_placement"))
        else:
            return
    record.emit(SettlementEnded())
