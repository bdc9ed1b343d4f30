"""The Looot stand-in bot: greedy on the seat's points as if the game ended now (tiles
valued with its filled Longships' bonuses, construction sites, the Trophy, minus unfilled
Longships), then on the Trophy (the rules' tie-break).

No hidden information steers it: the bag is the only thing hidden (from everyone), and it
only refills the market, which scores nothing for the seat, so it plans on the state itself
(this package's README).
"""

from __future__ import annotations

from domain.bots import GreedyBot, Score
from domain.games.looot.scoring import breakdown, trophy_points
from domain.games.looot.state import LoootState


def immediate_score(state: LoootState, seat: int) -> Score:
    """The seat's points now, then its Trophy."""
    player = state.players[seat]
    return (sum(breakdown(player).values()), trophy_points(player))


def greedy_bot(seed: bytes) -> GreedyBot:
    """A greedy Looot bot for one move (seeded: the same seed, the same move)."""
    return GreedyBot(seed, immediate_score)
