"""Looot's state: the table, each player's supply and Fjord, and the turn's sub-steps.

States are mutable dataclasses owned by the fold (see domain/engine.py); `copy` gives an
independent copy. The board never changes, so copies share it.

The turn is an explicit state machine (`step`):

    place_viking --LoootPlaceViking--> place_tiles (gained tiles pending) --LoootPlaceTile...-->
    end_of_turn: LoootPlaceViking with the second-Viking Shield (back to place_tiles),
                 TakeLongship, ClaimTrophy, EndTurn --> the next player's place_viking
    over: every Viking is placed (`turn` is None)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from contracts.games.looot import Hex, Shield, Site, Step, Tile
from domain.games.looot.board import Board
from domain.games.looot.components import SHIELDS, VIKINGS_PER_PLAYER


@dataclass
class PlayerState:
    """One player's supply, Fjord and once-per-game records."""

    sites: dict[Site, int]  # the construction-site card of each kind on this Fjord
    vikings_left: int = VIKINGS_PER_PLAYER
    shields: set[Shield] = field(default_factory=lambda: set(SHIELDS))  # not used yet
    tiles: dict[Hex, Tile] = field(default_factory=dict)  # Fjord space -> tile
    longships: dict[Hex, int] = field(default_factory=dict)  # Fjord space -> Longship id
    filled: set[int] = field(default_factory=set)  # ids of the filled Longships
    completed: set[Site] = field(default_factory=set)
    trophy: int | None = None  # the Axes of the claimed Trophy
    linked_towers: set[tuple[Hex, Hex]] = field(default_factory=set)  # pairs already paid
    castle_tiles: dict[Hex, int] = field(default_factory=dict)  # Castle space -> tiles taken
    tiles_lost: int = 0

    def copy(self) -> PlayerState:
        """An independent copy."""
        return PlayerState(
            sites=dict(self.sites),
            vikings_left=self.vikings_left,
            shields=set(self.shields),
            tiles=dict(self.tiles),
            longships=dict(self.longships),
            filled=set(self.filled),
            completed=set(self.completed),
            trophy=self.trophy,
            linked_towers=set(self.linked_towers),
            castle_tiles=dict(self.castle_tiles),
            tiles_lost=self.tiles_lost,
        )


@dataclass
class Turn:
    """Where the current player's turn stands."""

    seat: int
    vikings_placed: int = 0
    pending: list[Tile] = field(default_factory=list)  # gained tiles still to put on the Fjord
    longship_taken: bool = False
    trophy_claimed: bool = False

    def copy(self) -> Turn:
        """An independent copy."""
        return Turn(
            self.seat,
            self.vikings_placed,
            list(self.pending),
            self.longship_taken,
            self.trophy_claimed,
        )


@dataclass
class LoootState:
    """Everything that decides what happens next."""

    board: Board
    faces: tuple[int, ...]
    first_seat: int
    players: list[PlayerState]
    vikings: dict[Hex, tuple[int, ...]]  # occupied land space -> seats of its Vikings
    stacks: dict[Hex, int]  # building space -> tiles left on it
    market: list[int | None]  # the Longship in each ocean slot
    bag: list[int]  # Longship ids, sorted: a draw is an index into this list
    trophies: dict[int, int | None]  # Axes needed -> holder
    draws: int  # random draws used so far; the next draw has this index
    turn: Turn | None  # None once the game is over

    def copy(self) -> LoootState:
        """An independent copy (the board is shared: it never changes)."""
        return LoootState(
            board=self.board,
            faces=self.faces,
            first_seat=self.first_seat,
            players=[player.copy() for player in self.players],
            vikings=dict(self.vikings),
            stacks=dict(self.stacks),
            market=list(self.market),
            bag=list(self.bag),
            trophies=dict(self.trophies),
            draws=self.draws,
            turn=None if self.turn is None else self.turn.copy(),
        )


def step(state: LoootState) -> Step:
    """The turn's current sub-step."""
    turn = state.turn
    if turn is None:
        return "over"
    if turn.pending:
        return "place_tiles"
    if turn.vikings_placed == 0:
        return "place_viking"
    return "end_of_turn"
