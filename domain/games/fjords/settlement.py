"""The Settlement Phase: where a viking may go, who is out, and when the phase ends.

Rule book, "Taking a turn during the Settlement Phase": place a viking from your supply on a vacant
landscape tile that is adjacent to a tile with one of your longhouses or vikings, has no piece on
it, contains plains, and is connected to that adjacent piece of yours by plains. Two adjacent tiles
are connected by plains when one of their two shared corners is P (decision 3 in this package's
README). No viking goes on a tile holding a rune stone (decision 6 in this package's README). A
player who cannot place a viking is out and skipped from then on; the phase ends when all players
are out.

With the Journey, Horse or Wisdom runes a player may place a viking another way instead of a
normal turn (`rune_moves`); a player who can still do that is not out.
"""

from __future__ import annotations

from contracts.games.fjords import PlaceViking, PlayerOut, SettlementEnded, VikingPlaced
from domain.errors import IllegalCommand
from domain.games.fjords.colours import choose_colour
from domain.games.fjords.evolve import Recorder
from domain.games.fjords.rune_moves import has_rune_move
from domain.games.fjords.state import FjordsState
from domain.games.fjords.targets import check_target, own_piece_at, plains_neighbours
from domain.hexgrid import SIDE_OFFSETS, Hex


def viking_targets(state: FjordsState, seat: int) -> list[Hex]:
    """Every tile where `seat` may place a viking by a normal turn (ignoring its supply)."""
    targets: set[Hex] = set()
    for position, piece in state.pieces.items():
        if piece.seat == seat:
            targets.update(h for h in plains_neighbours(state, position) if state.is_vacant(h))
    return sorted(targets)


def check_vikings_left(state: FjordsState, seat: int) -> None:
    """Raise IllegalCommand when the seat has no viking left to place."""
    if state.vikings_left(seat) == 0:
        raise IllegalCommand("fjords.viking.none_left", "You have no vikings left to place.")


def check_viking(state: FjordsState, command: PlaceViking, seat: int) -> str:
    """The colour of the viking to place, or IllegalCommand naming the first rule broken."""
    position = (command.q, command.r)
    where = {"q": command.q, "r": command.r}
    check_vikings_left(state, seat)
    check_target(state, position)
    q, r = position
    own_adjacent = [
        (q + dq, r + dr) for dq, dr in SIDE_OFFSETS if own_piece_at(state, (q + dq, r + dr), seat)
    ]
    if not own_adjacent:
        raise IllegalCommand(
            "fjords.viking.not_adjacent",
            "A viking must go next to one of your longhouses or vikings.",
            **where,
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
    return choose_colour(state, seat, "viking", command.colour)


def place_viking(record: Recorder, position: Hex, seat: int, colour: str) -> None:
    """Emit a checked viking placement, then move on to the next seat that can still place."""
    record.emit(VikingPlaced(seat, position[0], position[1], colour))
    start_settlement_turn(record)


def can_place(state: FjordsState, seat: int) -> bool:
    """Whether the seat can place a viking now, by a normal turn or with a rune stone."""
    return bool(viking_targets(state, seat)) or has_rune_move(state, seat)


def start_settlement_turn(record: Recorder) -> None:
    """Put out every seat in turn order that cannot place, until one can or all are out."""
    state = record.state
    while state.active is not None:
        seat = state.active
        if state.vikings_left(seat) == 0:
            record.emit(PlayerOut(seat, "no_vikings_left"))
        elif not can_place(state, seat):
            record.emit(PlayerOut(seat, "no_legal_placement"))
        else:
            return
    record.emit(SettlementEnded())
