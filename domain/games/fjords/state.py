"""The Fjords game state: a mutable value owned by the fold (see domain/engine.py).

Pieces carry their owner seat and their colour, so the Epic variant (two colours per player,
decision 9) fits without a new model; `Supply` is kept per seat and colour for the same reason.
Rune stones (issue 3) will occupy tiles beside the pieces. Tiles and pieces on the board are
immutable named tuples: cheap to build during replay and shared between copies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from contracts.games.fjords import Phase, PieceKind
from domain.hexgrid import Hex

# Seat colours, as the rule book's examples name the players.
COLOURS: tuple[str, ...] = ("white", "yellow", "purple", "black")
VIKINGS_PER_COLOUR = 20
LONGHOUSES_PER_COLOUR = 4


class PlacedTile(NamedTuple):
    """A tile on the board: which tile, how it is turned, and its corners as they now lie."""

    tile: int
    rotation: int
    corners: str


class Piece(NamedTuple):
    """A longhouse or a viking on a tile."""

    kind: PieceKind
    seat: int
    colour: str


@dataclass(slots=True)
class Supply:
    """The pieces of one colour a seat has not placed yet."""

    colour: str
    vikings: int
    longhouses: int


@dataclass
class FjordsState:
    """Everything about one game; compared with == and copied with `copy`."""

    players: int
    variant: str
    runes: tuple[str, ...]
    first_player: int
    supplies: list[list[Supply]]  # per seat, per colour
    bag: list[int]  # tile ids, kept sorted: draws index into this order
    phase: Phase = "exploration"
    active: int | None = None
    board: dict[Hex, PlacedTile] = field(default_factory=dict)
    pieces: dict[Hex, Piece] = field(default_factory=dict)
    row: list[int] = field(default_factory=list)
    discarded: list[int] = field(default_factory=list)  # rows set aside while redrawing
    draws_used: int = 0
    out: list[bool] = field(default_factory=list)
    settlement_starter: int | None = None

    def copy(self) -> FjordsState:
        """An independent copy (tiles and pieces are immutable, so shallow containers do)."""
        return FjordsState(
            players=self.players,
            variant=self.variant,
            runes=self.runes,
            first_player=self.first_player,
            supplies=[
                [Supply(s.colour, s.vikings, s.longhouses) for s in seat] for seat in self.supplies
            ],
            bag=list(self.bag),
            phase=self.phase,
            active=self.active,
            board=dict(self.board),
            pieces=dict(self.pieces),
            row=list(self.row),
            discarded=list(self.discarded),
            draws_used=self.draws_used,
            out=list(self.out),
            settlement_starter=self.settlement_starter,
        )

    def vikings_left(self, seat: int) -> int:
        """Vikings the seat still holds, all colours together."""
        return sum(s.vikings for s in self.supplies[seat])

    def longhouses_left(self, seat: int) -> int:
        """Longhouses the seat still holds, all colours together."""
        return sum(s.longhouses for s in self.supplies[seat])

    def next_in(self, after: int) -> int | None:
        """The first seat after `after` in turn order (clockwise) that is not out, or None."""
        for step in range(1, self.players + 1):
            seat = (after + step) % self.players
            if not self.out[seat]:
                return seat
        return None


def starting_supplies(players: int, colours: list[list[str]]) -> list[list[Supply]]:
    """Each seat's pieces at setup: 20 vikings and 4 longhouses per colour (rule book)."""
    return [
        [Supply(colour, VIKINGS_PER_COLOUR, LONGHOUSES_PER_COLOUR) for colour in colours[seat]]
        for seat in range(players)
    ]
