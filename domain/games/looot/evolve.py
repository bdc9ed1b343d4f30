"""Applying events to the state: never validates, updates in place, returns the state."""

from __future__ import annotations

from contracts.base import Event
from contracts.games.looot import (
    CastleTaken,
    GameSetUp,
    Hex,
    HouseTaken,
    LongshipDrawn,
    LongshipFilled,
    LongshipTaken,
    LoootTilePlaced,
    LoootVikingPlaced,
    SiteCompleted,
    TilesLost,
    TrophyClaimed,
    TurnEnded,
    WatchtowersLinked,
)
from domain.games.looot.board import Board, assemble
from domain.games.looot.components import (
    LONGSHIPS,
    STACK_SIZES,
    TROPHY_POINTS,
)
from domain.games.looot.state import LoootState, PlayerState, Turn
from domain.games.looot.vikings import captured_tiles


def new_state(event: GameSetUp) -> LoootState:
    """The table the setup event describes, before the Longship market is drawn."""
    board = assemble(event.faces)
    return LoootState(
        board=board,
        faces=event.faces,
        first_seat=event.first_seat,
        players=[
            PlayerState(
                sites={"port": hand.port, "altar": hand.altar, "jarl_palace": hand.jarl_palace}
            )
            for hand in event.sites
        ],
        vikings={},
        stacks=initial_stacks(board),
        market=[None] * len(board.ocean),
        bag=sorted(LONGSHIPS),
        trophies=dict.fromkeys(TROPHY_POINTS),
        draws=event.draws,
        turn=Turn(seat=event.first_seat),
    )


def initial_stacks(board: Board) -> dict[Hex, int]:
    """The building stacks at setup: 2 on each House and Watchtower, 3 on each Castle."""
    return {
        space: STACK_SIZES[terrain]
        for space, terrain in board.land.items()
        if terrain in STACK_SIZES
    }


def evolve(state: LoootState | None, event: Event) -> LoootState:
    """Apply one event (the first one, GameSetUp, creates the state)."""
    if isinstance(event, GameSetUp):
        return new_state(event)
    assert state is not None, "a Looot stream starts with GameSetUp"
    match event:
        case LongshipDrawn(slot=slot, longship=longship, draw=draw):
            state.bag.remove(longship)
            state.market[slot] = longship
            state.draws = draw + 1
        case LoootVikingPlaced(seat=seat, space=space, shields=shields, resources=resources):
            player = state.players[seat]
            state.vikings[space] = (*state.vikings.get(space, ()), seat)
            player.vikings_left -= 1
            player.shields.difference_update(shields)
            _turn(state).vikings_placed += 1
            _turn(state).pending += resources
        case HouseTaken(house=house):
            state.stacks[house] -= 1
            _turn(state).pending += captured_tiles(event)
        case WatchtowersLinked(seat=seat, towers=towers, taken_from=taken_from):
            state.players[seat].linked_towers.add(towers)
            for tower in taken_from:
                state.stacks[tower] -= 1
            _turn(state).pending += captured_tiles(event)
        case CastleTaken(seat=seat, castle=castle):
            state.stacks[castle] -= 1
            tally = state.players[seat].castle_tiles
            tally[castle] = tally.get(castle, 0) + 1
            _turn(state).pending += captured_tiles(event)
        case LoootTilePlaced(seat=seat, tile=tile, space=space):
            state.players[seat].tiles[space] = tile
            _turn(state).pending.remove(tile)
        case TilesLost(seat=seat, tiles=tiles):
            state.players[seat].tiles_lost += len(tiles)
            for tile in tiles:
                _turn(state).pending.remove(tile)
        case SiteCompleted(seat=seat, site=site):
            state.players[seat].completed.add(site)
        case LongshipTaken(seat=seat, slot=slot, longship=longship, space=space):
            state.market[slot] = None
            state.players[seat].longships[space] = longship
            _turn(state).longship_taken = True
        case LongshipFilled(seat=seat, longship=longship):
            state.players[seat].filled.add(longship)
        case TrophyClaimed(seat=seat, axes=axes):
            state.trophies[axes] = seat
            state.players[seat].trophy = axes
            _turn(state).trophy_claimed = True
        case TurnEnded(next_seat=next_seat):
            state.turn = None if next_seat is None else Turn(seat=next_seat)
        case _:
            raise TypeError(f"not a Looot event: {type(event).__name__}")
    return state


def _turn(state: LoootState) -> Turn:
    assert state.turn is not None, "turn events come only while the game goes on"
    return state.turn
