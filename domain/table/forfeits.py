"""Forfeited seats in a game's outcome: ranked last, whatever their points.

A seat forfeits when its turn timer runs out under the `forfeit` policy (SeatForfeited); the
rules never hear of it (a bot plays the seat so the game goes on), so the service ranks the
seat last in the rules' outcome: every other seat keeps its order, every forfeited seat
shares the last rank, and only seats still in the game can win.
"""

from __future__ import annotations

from collections.abc import Iterable

from contracts.outcome import Outcome, PlayerScore
from contracts.stream import SeatForfeited

FORFEITED_LAST = "forfeited seats ranked last"


def forfeited_seats(events: Iterable[object]) -> frozenset[int]:
    """The seats the events forfeit."""
    return frozenset(event.seat for event in events if isinstance(event, SeatForfeited))


def rank_forfeited_last(outcome: Outcome | None, forfeited: Iterable[int]) -> Outcome | None:
    """The outcome with the forfeited seats ranked last (unchanged when there are none)."""
    out = set(forfeited)
    if outcome is None or not out:
        return outcome
    playing = [score for score in outcome.scores if score.seat not in out]
    last = len(playing) + 1
    scores = []
    for score in outcome.scores:
        if score.seat in out:
            rank = last
        else:
            rank = 1 + sum(1 for other in playing if other.rank < score.rank)
        scores.append(PlayerScore(score.seat, score.total, score.breakdown, rank))
    winners = [score.seat for score in scores if score.rank == 1]
    tie_break = "; ".join(part for part in (outcome.tie_break, FORFEITED_LAST) if part)
    return Outcome(scores=scores, winners=winners, tie_break=tie_break)
