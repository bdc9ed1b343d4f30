"""The outcome of final scores: totals, ranks, winners and what broke a tie."""

from __future__ import annotations

from collections.abc import Sequence

from contracts.outcome import Outcome, PlayerScore


def ranked(
    breakdowns: Sequence[dict[str, int]],
    tie_breakers: Sequence[tuple[int, ...]],
    *,
    shared_victory: str,
    tie_broken: str,
) -> Outcome:
    """Each seat's total (the sum of its breakdown, points by rule), rank and the winners.

    Seats rank by total, then by their tie-breakers compared in order, higher first; seats equal
    on all of them share a rank and the next rank skips (1, 1, 3). The winners are every seat
    ranked first. `tie_break` is `shared_victory` when several seats win, `tie_broken` when the
    tie-breakers split seats tied on points at the top, and empty otherwise.
    """
    totals = [sum(points.values()) for points in breakdowns]
    keys = [(total, *rest) for total, rest in zip(totals, tie_breakers, strict=True)]
    scores = [
        PlayerScore(
            seat=seat,
            total=totals[seat],
            breakdown=breakdowns[seat],
            rank=1 + sum(1 for other in keys if other > keys[seat]),
        )
        for seat in range(len(totals))
    ]
    winners = [score.seat for score in scores if score.rank == 1]
    tie_break = ""
    if len(winners) > 1:
        tie_break = shared_victory
    elif totals.count(max(totals)) > 1:
        tie_break = tie_broken
    return Outcome(scores=scores, winners=winners, tie_break=tie_break)
