"""Applying Fjords events to the state: facts only, nothing is checked here.

Turn bookkeeping is derived rather than stored as events: after an Exploration tile the turn
passes clockwise to the next seat; in Settlement it passes to the next seat that is not out.
A Classic match's next game archives the finished game's final state (`earlier_games`) and
resets the table, so the combined score is computed from the events like any other score.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Iterable
from typing import Any

from contracts.base import Event
from contracts.games.fjords import (
    DiscardedTilesReturned,
    ExplorationEnded,
    GameStarted,
    LonghousePlaced,
    MatchGameStarted,
    PlayerOut,
    RowDiscarded,
    RuneStoneDiscarded,
    RuneStonePlaced,
    SettlementEnded,
    TileDrawn,
    TilePlaced,
    TileSetAside,
    VikingPlaced,
)
from domain.games.fjords.state import (
    FjordsState,
    RuneStone,
    Supply,
    starting_supplies,
)
from domain.games.fjords.tiles import TileSet
from domain.games.fjords.variants import bag_for, starting_runes
from domain.kernel import recorder


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
            supplies=starting_supplies(event.colours),
            bag=bag_for(tiles, event.variant, event.players),
            active=event.first_player,
            draws_used=event.first_player_draw + 1,
            out=[False] * event.players,
            preset=event.preset,
            colours=[list(seat) for seat in event.colours],
            runes_held=starting_runes(tuple(event.runes), event.players),
        )
    if isinstance(event, MatchGameStarted):
        return _match_game_started(state, event, tiles)
    # A dict lookup by type, not a chain of isinstance tests: replay speed is fold speed.
    apply = _APPLY.get(type(event))
    if apply is None:
        raise ValueError(f"not an event of a started Fjords game: {type(event).__name__}")
    apply(state, event)
    return state


def fold(state: FjordsState | None, events: Iterable[Event], tiles: TileSet) -> FjordsState | None:
    """Apply events in order: exactly what `evolve` does to each, one call per event."""
    events = iter(events)
    if state is None:
        first = next(events, None)
        if first is None:
            return None
        state = evolve(None, first, tiles)
    handlers = _APPLY
    for event in events:
        try:
            apply = handlers[type(event)]
        except KeyError:
            state = evolve(state, event, tiles)
            continue
        apply(state, event)
    return state


def _tile_placed(state: FjordsState, event: TilePlaced) -> None:
    state.board[(event.q, event.r)] = event  # the fact is the tile as it lies (PlacedTile)
    # Starting tiles come from nowhere; others from the row, or (Classic) the hand or set-aside.
    tile, row = event.tile, state.row
    if tile in row:
        row.remove(tile)
    elif tile == state.drawn:
        state.drawn = None
    elif tile in state.set_aside:
        state.set_aside.remove(tile)
    seat = event.seat
    if seat is not None:
        state.active = (seat + 1) % state.players


def _tile_drawn(state: FjordsState, event: TileDrawn) -> None:
    tile, bag = event.tile, state.bag
    del bag[bisect_left(bag, tile)]
    if state.variant == "classic":
        state.drawn = tile
    else:
        state.row.append(tile)
    state.draws_used = event.draw + 1


def _tile_set_aside(state: FjordsState, event: TileSetAside) -> None:
    state.set_aside.append(event.tile)
    if state.drawn == event.tile:
        state.drawn = None


def _rune_stone_placed(state: FjordsState, event: RuneStonePlaced) -> None:
    seat = event.seat
    colour = None if seat is None else state.colours[seat][0]  # one rune colour per player
    state.rune_stones[(event.q, event.r)] = RuneStone(event.rune, seat, colour)
    if seat is not None and event.rune in state.runes_held[seat]:
        state.runes_held[seat].remove(event.rune)


def _rune_stone_discarded(state: FjordsState, event: RuneStoneDiscarded) -> None:
    if event.rune in state.runes_held[event.seat]:
        state.runes_held[event.seat].remove(event.rune)


def _match_game_started(state: FjordsState, event: MatchGameStarted, tiles: TileSet) -> FjordsState:
    """Archive the finished game and set the table, pieces, stones and bag up afresh."""
    finished = state.copy()
    finished.earlier_games = []
    state.earlier_games.append(finished)
    state.match_game = event.game
    state.first_player = event.first_player
    state.active = event.first_player
    state.draws_used = event.first_player_draw + 1
    state.phase = "exploration"
    state.supplies = starting_supplies(state.colours)
    state.bag = bag_for(tiles, state.variant, state.players)
    state.board = {}
    state.pieces = {}
    state.rune_stones = {}
    state.runes_held = starting_runes(state.runes, state.players)
    state.row, state.discarded, state.set_aside, state.drawn = [], [], [], None
    state.out = [False] * state.players
    state.settlement_starter = None
    return state


def _longhouse_placed(state: FjordsState, event: LonghousePlaced) -> None:
    seat, colour = event.seat, event.colour
    supply = state.supplies[seat][0]  # every piece is of the main colour but Epic's second
    if supply.colour != colour:
        supply = _supply(state, seat, colour)
    supply.longhouses -= 1
    state.pieces[(event.q, event.r)] = supply.longhouse


def _viking_placed(state: FjordsState, event: VikingPlaced) -> None:
    seat, colour = event.seat, event.colour
    supply = state.supplies[seat][0]  # every piece is of the main colour but Epic's second
    if supply.colour != colour:
        supply = _supply(state, seat, colour)
    supply.vikings -= 1
    state.pieces[(event.q, event.r)] = supply.viking
    # Most turns pass to the very next seat; `next_in` walks on only when that seat is out.
    following = (seat + 1) % state.players
    state.active = following if not state.out[following] else state.next_in(seat)


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
    TileSetAside: _tile_set_aside,
    RuneStonePlaced: _rune_stone_placed,
    RuneStoneDiscarded: _rune_stone_discarded,
}


def _supply(state: FjordsState, seat: int, colour: str) -> Supply:
    for supply in state.supplies[seat]:
        if supply.colour == colour:
            return supply
    raise ValueError(f"seat {seat} plays no {colour} pieces")


class Recorder(recorder.Recorder[FjordsState]):
    """Collects the events `decide` emits and applies each to a working copy at once.

    Later steps of the same command (the refill, the redraw check, who is out) then read the
    state exactly as the fold will have it, so decide and evolve cannot disagree.
    """

    def __init__(self, state: FjordsState, tiles: TileSet) -> None:
        super().__init__(state, evolver(tiles))


def evolver(tiles: TileSet) -> Callable[[FjordsState | None, Event], FjordsState]:
    """`evolve` over `tiles`, a started game's events going straight to their handler: one call
    and one type test fewer per event than through `evolve` (replay speed is fold speed)."""

    def evolve_over_tiles(state: FjordsState | None, event: Event) -> FjordsState:
        apply = _APPLY.get(type(event))
        if apply is None or state is None:
            return evolve(state, event, tiles)
        apply(state, event)
        return state

    return evolve_over_tiles
