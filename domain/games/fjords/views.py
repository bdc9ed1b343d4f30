"""What a seat may see of a Fjords game, and the scramble the conformance tests use.

Everything on the table is public: tiles, pieces (each in its own colour: Epic seats play two),
rune stones, the face-up row (Classic: the drawn and set-aside tiles), every supply with the
rune stones still held, who is out, and a Classic match's finished games. The only hidden thing
is the bag: a view carries its size, never its content (and the seed, which no state holds,
decides the order of draws).
"""

from __future__ import annotations

from contracts.base import Event
from contracts.games.fjords import (
    BoardTileView,
    FjordsView,
    PieceView,
    RowTileView,
    RuneStoneView,
    SeatView,
    SupplyView,
)
from domain.chance import Chance
from domain.games.fjords.scoring import match_results, outcome
from domain.games.fjords.state import FjordsState
from domain.games.fjords.tiles import TileSet


def to_act(state: FjordsState) -> list[int]:
    """The seat whose turn it is, or nobody once the game has ended."""
    return [] if state.active is None or state.phase == "ended" else [state.active]


def view(state: FjordsState, seat: int | None, tiles: TileSet) -> FjordsView:
    """The table as `seat` (None: a spectator) sees it; the same for everyone but the viewer."""
    vikings_placed = [0] * state.players
    pieces = []
    for (q, r), piece in sorted(state.pieces.items()):
        if piece.kind == "viking":
            vikings_placed[piece.seat] += 1
        pieces.append(PieceView(piece.kind, piece.seat, piece.colour, q, r))
    return FjordsView(
        viewer=seat,
        phase=state.phase,
        to_act=to_act(state),
        first_player=state.first_player,
        tiles=[
            BoardTileView(
                placed.tile, q, r, placed.rotation, placed.corners, tiles.tile(placed.tile).symbol
            )
            for (q, r), placed in sorted(state.board.items())
        ],
        pieces=pieces,
        row=[_face_up(tiles, tile) for tile in state.row],
        bag_size=len(state.bag),
        seats=[
            SeatView(
                seat=s,
                supply=[SupplyView(x.colour, x.vikings, x.longhouses) for x in state.supplies[s]],
                vikings_placed=vikings_placed[s],
                out=state.out[s],
                runes=list(state.runes_held[s]),
            )
            for s in range(state.players)
        ],
        settlement_starter=state.settlement_starter,
        outcome=outcome(state),
        variant=state.variant,
        runes=list(state.runes),
        preset=state.preset,
        rune_stones=[
            RuneStoneView(stone.rune, q, r, stone.seat, stone.colour)
            for (q, r), stone in sorted(state.rune_stones.items())
        ],
        drawn=None if state.drawn is None else _face_up(tiles, state.drawn),
        set_aside=[_face_up(tiles, tile) for tile in state.set_aside],
        match_game=state.match_game if state.variant == "classic" else None,
        match_results=match_results(state) if state.variant == "classic" else [],
    )


def _face_up(tiles: TileSet, tile_id: int) -> RowTileView:
    tile = tiles.tile(tile_id)
    return RowTileView(tile.id, tile.corners, tile.mark, tile.symbol)


def visible_event(event: Event, seat: int | None) -> Event:
    """Every Fjords event is a public fact: the row is face up and no event lists the bag."""
    return event


def scramble_hidden(
    state: FjordsState, seat: int | None, chance: Chance, tiles: TileSet
) -> FjordsState:
    """A copy whose bag holds other tiles (same size): the only thing hidden from every seat.

    The bag's content follows from public facts anyway (the tile set, the player count's marks,
    the tiles on the table), and the order of draws from the secret seed, which no state holds.
    Replacements come from every tile not on the table, including those the player count
    removed; with 4 players that pool is the bag itself, so the copy equals the state.
    """
    scrambled = state.copy()
    seen = set(state.row) | set(state.set_aside) | {placed.tile for placed in state.board.values()}
    if state.drawn is not None:
        seen.add(state.drawn)
    pool = sorted(t for t in tiles.landscape if t not in seen)
    chosen = []
    for index in range(len(state.bag)):
        chosen.append(pool.pop(chance.below(index, len(pool))))
    scrambled.bag = sorted(chosen)
    return scrambled
