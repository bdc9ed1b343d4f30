"""The Landnám stand-in bot: greedy on the seat's points now (houses and tokens), then the
rules' tie-breaks (black, red, white tokens), then its units and the cards in its hand.

It plans on a copy in which the other seats' hands, the stock and the fate deck were
re-dealt by its own draws (`scramble_hidden`), so what the seat cannot see cannot steer it
(this package's README).
"""

from __future__ import annotations

from domain.bots import GreedyBot, Score
from domain.games.landnam.scoring import rank_key
from domain.games.landnam.state import LandnamState
from domain.games.landnam.views import scramble_hidden


def immediate_score(state: LandnamState, seat: int) -> Score:
    """The seat's points now (its declared builds counted as built) and the tokens that
    break ties, then its units (settlers and ships: what builds the next houses), then the
    cards in its hand."""
    points, black, red, white, _houses, cards = rank_key(state, seat)
    units = sum(1 for unit in state.units.values() if unit.owner == seat)
    for pending in state.turn.pending:  # declared builds count as built (a town: +1 point)
        if pending.seat == seat:
            points += pending.kind in ("farm", "town")
            units += pending.kind in ("settler", "ship")
    return (points, black, red, white, units, cards)


def greedy_bot(seed: bytes) -> GreedyBot:
    """A greedy Landnám bot for one move (seeded: the same seed, the same move)."""
    return GreedyBot(seed, immediate_score, scramble_hidden)
