"""Applying Fjords events to the state: facts only, nothing is checked here.

Turn bookkeeping is derived rather than stored as events: after an Exploration tile the turn
passes clockwise to the next seat; in Settlement it passes to the next seat that is not out.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable
from typing import Any

from contracts.base import Event
from contracts.games.fjords import (
    DiscardedTilesReturned,
    ExplorationEnded,
    GameStarted,
    LonghousePlaced,
    PlayerOut,
    RowDiscarded,
    SettlementEnded,
    TileDrawn,
    TilePlaced,
    VikingPlaced,
)
from domain.games.fjords.state import FjordsState, Piece, PlacedTile, Supply, starting_supplies
from domain.games.fjords.tiles import TileSet


def evolve(state: FjordsState | None, event: Event, tiles: TileSet) -> FjordsState:
    """Apply one event (in place when a state exists) and return the state."""
    if state is None:
        if not isinstance(event, GameStarted):
            raise ValueError(f"a Fjords stream starts with GameStarted, not {type(event).__name__}")
        return FjordsState(
            players=event.players,
            variant=event.variant,
            runes=tuple(event.runes),
            first_player=event.first_player,
            supplies=starting_supplies(event.players, event.colours),
            bag=tiles.bag_for(event.players),
            active=event.first_player,
            draws_used=event.first_player_draw + 1,
            out=[False] * event.players,
        )
    # A dict lookup by type, not a chain of isinstance tests: replay speed is fold speed.
    apply = _APPLY.get(type(event))
    if apply is None:
        raise ValueError(f"not an event of a started Fjords game: {type(event).__name__}")
    apply(state, event)
    return state


def _tile_placed(state: FjordsState, event: TilePlaced) -> None:
    state.board[(event.q, event.r)] = PlacedTile(event.tile, event.rotation, event.corners)
    if event.tile in state.row:  # starting tiles never were in the row
        state.row.remove(event.tile)
    if event.seat is not None:
        state.active = (event.seat + 1) % state.players


def _tile_drawn(state: FjordsState, event: TileDrawn) -> None:
    del state.bag[bisect_left(state.bag, event.tile)]
    state.row.append(event.tile)
    state.draws_used = event.draw + 1


def _longhouse_placed(state: FjordsState, event: LonghousePlaced) -> None:
    state.pieces[(event.q, event.r)] = Piece("longhouse", event.seat, event.colour)
    _supply(state, event.seat, event.colour).longhouses -= 1


def _viking_placed(state: FjordsState, event: VikingPlaced) -> None:
    state.pieces[(event.q, event.r)] = Piece("viking", event.seat, event.colour)
    _supply(state, event.seat, event.colour).vikings -= 1
    state.active = state.next_in(event.seat)


def _row_discarded(state: FjordsState, event: RowDiscarded) -> None:
    state.discarded.extend(event.tiles)
    state.row = [tile for tile in state.row if tile not in event.tiles]


def _discarded_returned(state: FjordsState, event: DiscardedTilesReturned) -> None:
    for tile in event.tiles:
        insort(state.bag, tile)
    state.discarded = [tile for tile in state.discarded if tile not in event.tiles]


def _exploration_ended(state: FjordsState, event: ExplorationEnded) -> None:
    state.phase = "settlement"
    state.settlement_starter = event.settlement_starter
    state.active = event.settlement_starter


def _player_out(state: FjordsState, event: PlayerOut) -> None:
    state.out[event.seat] = True
    if state.active == event.seat:
        state.active = state.next_in(event.seat)


def _settlement_ended(state: FjordsState, event: SettlementEnded) -> None:
    state.phase = "ended"
    state.active = None


_APPLY: dict[type, Callable[[FjordsState, Any], None]] = {
    TilePlaced: _tile_placed,
    TileDrawn: _tile_drawn,
    LonghousePlaced: _longhouse_placed,
    VikingPlaced: _viking_placed,
    RowDiscarded: _row_discarded,
    DiscardedTilesReturned: _discarded_returned,
    ExplorationEnded: _exploration_ended,
    PlayerOut: _player_out,
    SettlementEnded: _settlement_ended,
}


def _supply(state: FjordsState, seat: int, colour: str) -> Supply:
    for supply in state.supplies[seat]:
        if supply.colour == colour:
            return supply
    raise ValueError(f"seat {seat} plays no {colour} pieces")


class Recorder:
    """Collects the events `decide` emits and applies each to a working copy at once.

    Later steps of the same command (the refill, the redraw check, who is out) then read the
    state exactly as the fold will have it, so decide and evolve cannot disagree.
    """

    def __init__(self, state: FjordsState | None, tiles: TileSet) -> None:
        self._state = state
        self._tiles = tiles
        self.events: list[Event] = []

    @property
    def state(self) -> FjordsState:
        """The working state after every event emitted so far."""
        assert self._state is not None, "no GameStarted emitted yet"
        return self._state

    def emit(self, event: Event) -> None:
        """Record an event and apply it to the working state."""
        self.events.append(event)
        self._state = evolve(self._state, event, self._tiles)
