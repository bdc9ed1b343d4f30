"""The Fjords game state: a mutable value owned by the fold (see domain/engine.py).

Pieces carry their owner seat and their colour, so the Epic variant (two colours per player,
decision 9 in this package's README) fits without a new model; `Supply` is kept per seat and colour
for the same reason. Rune stones lie beside the pieces (`rune_stones`, by position: a tile's, or for
Wisdom an empty space's). Tiles, pieces and stones on the board are immutable, so copies and replays
share them: a tile on the board is the `TilePlaced` event that put it there, and each `Supply` holds
the piece its placements put down, so replay builds nothing per placed tile or piece.

A Classic match keeps its finished games in `earlier_games` (their final states), so the
combined score is computed from the events like any other score.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

from contracts.games.fjords import Phase, PieceKind, TilePlaced
from domain.hexgrid import Hex
from domain.kernel.seats import next_seat_where

# Seat colours, as the rule book's examples name the players.
COLOURS: tuple[str, ...] = ("white", "yellow", "purple", "black")
VIKINGS_PER_COLOUR = 20
LONGHOUSES_PER_COLOUR = 4
# Vikings and longhouses (rule book, Epic variant; decision 9 in this package's README).
EPIC_SECOND_COLOUR = (10, 2)


# A tile on the board: which tile, how it is turned (`rotation`), and its `corners` as they now
# lie; the fact that placed it says exactly that (and who placed it, `seat`).
PlacedTile = TilePlaced


class Piece(NamedTuple):
    """A longhouse or a viking on a tile."""

    kind: PieceKind
    seat: int
    colour: str


class RuneStone(NamedTuple):
    """A rune stone on the table; `seat` and `colour` for a player's own (Home, Wisdom)."""

    rune: str
    seat: int | None
    colour: str | None


@dataclass(slots=True)
class Supply:
    """The pieces of one colour a seat has not placed yet, and the `viking` and `longhouse`
    that placing one of them puts on the board (fixed by the seat and colour)."""

    colour: str
    vikings: int
    longhouses: int
    viking: Piece = field(compare=False, repr=False)
    longhouse: Piece = field(compare=False, repr=False)


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
    preset: int | None = None
    colours: list[list[str]] = field(default_factory=list)  # per seat, main colour first
    rune_stones: dict[Hex, RuneStone] = field(default_factory=dict)
    runes_held: list[list[str]] = field(default_factory=list)  # per seat, in RUNE_NAMES order
    drawn: int | None = None  # Classic: the tile drawn this turn, to be placed now
    set_aside: list[int] = field(default_factory=list)  # Classic: face-up unplaceable tiles
    match_game: int = 1  # Classic: which game of the match this is
    earlier_games: list[FjordsState] = field(default_factory=list)  # their final states

    def copy(self) -> FjordsState:
        """An independent copy (tiles, pieces and stones are immutable, so shallow containers
        do; finished games of a match are never changed again, so they are shared)."""
        return FjordsState(
            players=self.players,
            variant=self.variant,
            runes=self.runes,
            first_player=self.first_player,
            supplies=[
                [Supply(s.colour, s.vikings, s.longhouses, s.viking, s.longhouse) for s in seat]
                for seat in self.supplies
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
            preset=self.preset,
            colours=self.colours,
            rune_stones=dict(self.rune_stones),
            runes_held=[list(held) for held in self.runes_held],
            drawn=self.drawn,
            set_aside=list(self.set_aside),
            match_game=self.match_game,
            earlier_games=list(self.earlier_games),
        )

    def holds_rune(self, seat: int, rune: str) -> bool:
        """Whether the seat still has this rune stone in its supply."""
        return rune in self.runes_held[seat]

    def is_vacant(self, position: Hex) -> bool:
        """A placed tile with no piece and no rune stone on it (decision 6 in this package's
        README)."""
        return (
            position in self.board
            and position not in self.pieces
            and position not in self.rune_stones
        )

    def vikings_left(self, seat: int) -> int:
        """Vikings the seat still holds, all colours together."""
        return sum(s.vikings for s in self.supplies[seat])

    def longhouses_left(self, seat: int) -> int:
        """Longhouses the seat still holds, all colours together."""
        return sum(s.longhouses for s in self.supplies[seat])

    def next_in(self, after: int) -> int | None:
        """The first seat after `after` in turn order (clockwise) that is not out, or None."""
        out = self.out
        return next_seat_where(after, self.players, lambda seat: not out[seat])


def starting_supplies(colours: list[list[str]]) -> list[list[Supply]]:
    """Each seat's pieces at setup: 20 vikings and 4 longhouses of its main colour (rule book);
    Epic: 10 vikings and 2 longhouses of its second colour (decision 9 in this package's README)."""
    # Plain loops, not nested comprehensions (a function call each before Python 3.12): every
    # replayed GameStarted builds these.
    supplies = []
    for seat, seat_colours in enumerate(colours):
        own: list[Supply] = []
        for colour in seat_colours:
            viking, longhouse = _pieces(seat, colour)
            if own:
                own.append(Supply(colour, *EPIC_SECOND_COLOUR, viking, longhouse))
            else:
                own.append(
                    Supply(colour, VIKINGS_PER_COLOUR, LONGHOUSES_PER_COLOUR, viking, longhouse)
                )
        supplies.append(own)
    return supplies


@cache
def _pieces(seat: int, colour: str) -> tuple[Piece, Piece]:
    """The viking and longhouse of a seat's colour (immutable, so every game shares them)."""
    return Piece("viking", seat, colour), Piece("longhouse", seat, colour)
