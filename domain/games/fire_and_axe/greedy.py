"""The Fire & Axe stand-in bot: greedy on the seat's points as if the game ended now (in
play points, the Bloodied Axe, Settlements, Saga sets), then on its Sagas (the tie-break),
then on its means (crew, goods and Runes on hand).

It plans on a copy in which the treasures of unraided towns, the Saga and Rune decks and
the other seats' Runes were re-dealt by its own draws (`scramble_hidden`): a raid is
weighed on a treasure the seat could expect, never on the one the town really holds (this
package's README).
"""

from __future__ import annotations

from domain.bots import GreedyBot, Score
from domain.games.fire_and_axe.scoring import breakdowns
from domain.games.fire_and_axe.state import FireAndAxeState
from domain.games.fire_and_axe.views import scramble_hidden


def immediate_score(state: FireAndAxeState, seat: int) -> Score:
    """The seat's points now, then its Sagas, then its means (crew, goods, Runes)."""
    player = state.players[seat]
    means = player.crew + len(player.goods) + len(player.runes)
    return (sum(breakdowns(state)[seat].values()), len(player.sagas), means)


def greedy_bot(seed: bytes) -> GreedyBot:
    """A greedy Fire & Axe bot for one move (seeded: the same seed, the same move)."""
    return GreedyBot(seed, immediate_score, scramble_hidden)
