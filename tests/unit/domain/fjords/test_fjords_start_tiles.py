"""Vikings may stand on the starting tiles (decision 15 in the Fjords README): once laid, a
starting tile is a tile like any other."""

from __future__ import annotations

from contracts.games.fjords import ExplorationEnded, FjordsConfig, PlaceTile, PlaceViking
from domain.chance import Chance
from domain.engine import decide, fold
from domain.games.fjords.game import GAME
from domain.hexgrid import SIDE_OFFSETS

SEED = bytes(range(32))


def test_a_viking_may_go_on_a_starting_tile_next_to_its_longhouse() -> None:
    # Given the shipped game, and seat 0's longhouse on a tile laid beside a starting tile
    chance = Chance(SEED)
    state = fold(GAME, GAME.setup(FjordsConfig(players=2), chance))
    starting = {s.position for s in GAME.tiles.starting}
    seat = state.active
    beside = [
        c
        for c in GAME.legal_commands(state, seat)
        if isinstance(c, PlaceTile)
        and c.longhouse
        and any((c.q + dq, c.r + dr) in starting for dq, dr in SIDE_OFFSETS)
    ]
    assert beside, "the seeded row offers a longhouse tile beside a starting tile"
    state = fold(GAME, decide(GAME, state, beside[0], seat, chance), state)
    # When Exploration ends with that seat to start the Settlement
    state = GAME.evolve(state, ExplorationEnded("all_tiles_placed", 0, seat))
    # Then the seat may place vikings on the starting tiles its longhouse reaches by plains
    on_start = [
        c
        for c in GAME.legal_commands(state, seat)
        if isinstance(c, PlaceViking) and (c.q, c.r) in starting
    ]
    assert on_start
    target = on_start[0]
    state = fold(GAME, decide(GAME, state, target, seat, chance), state)
    piece = state.pieces[(target.q, target.r)]
    assert (piece.seat, piece.kind) == (seat, "viking")
