"""The Fjords stand-in bot: greedy on the seat's points as if the game ended now (vikings
placed, rune stones' points, the undisputed-tiles bonus once every viking is placed), ties
broken by its room (vacant tiles it could reach less those the opponents could).

No hidden information steers it: the bag is the only thing hidden, and no command's
immediate score depends on it (a drawn tile scores nothing until placed, and the tile to
place is shown to the seat), so it plans on the state itself (this package's README).
"""

from __future__ import annotations

from domain.bots import GreedyBot, Score
from domain.games.fjords.runes import rune_points
from domain.games.fjords.scoring import reachable_vacant_tiles, undisputed_tiles
from domain.games.fjords.state import FjordsState
from domain.hexgrid import Hex


def immediate_score(state: FjordsState, seat: int) -> Score:
    """The seat's points now (vikings placed, runes, undisputed tiles), then its room:
    the vacant tiles it could still reach less those its opponents could (points to come)."""
    vikings = sum(
        1 for piece in state.pieces.values() if piece.kind == "viking" and piece.seat == seat
    )
    runes = sum(rune_points(state, seat).values())
    mine = reachable_vacant_tiles(state, seat)
    theirs: set[Hex] = set()
    for other in range(state.players):
        if other != seat:
            theirs |= reachable_vacant_tiles(state, other)
    room = len(mine) - len(theirs)
    return (vikings + runes + undisputed_tiles(state, seat), room)


def greedy_bot(seed: bytes) -> GreedyBot:
    """A greedy Fjords bot for one move (seeded: the same seed, the same move)."""
    return GreedyBot(seed, immediate_score)
