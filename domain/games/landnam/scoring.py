"""Final scores and the ranking (decision 21): most points; ties by black, red and white
tokens, house points, then resource cards in hand; still tied, the win is shared."""

from __future__ import annotations

from contracts.outcome import Outcome, PlayerScore
from domain.games.landnam.state import LandnamState

TIE_BROKEN = "black, red, white tokens, house points, resource cards"
SHARED_VICTORY = "shared victory"


def breakdown(state: LandnamState, seat: int) -> dict[str, int]:
    """The points each source gives a player."""
    player = state.players[seat]
    farms = sum(1 for owner, level in state.houses.values() if owner == seat and level == 1)
    towns = sum(2 for owner, level in state.houses.values() if owner == seat and level == 2)
    return {
        "farms": farms,
        "towns": towns,
        "white_tokens": player.white,
        "red_tokens": player.red,
        "black_tokens": player.black,
    }


def rank_key(state: LandnamState, seat: int) -> tuple[int, ...]:
    """Points, then black, red, white tokens, house points, resource cards."""
    points = breakdown(state, seat)
    player = state.players[seat]
    return (
        sum(points.values()),
        player.black,
        player.red,
        player.white,
        points["farms"] + points["towns"],
        sum(player.hand.values()),
    )


def outcome(state: LandnamState) -> Outcome | None:
    """Final scores and ranking once the game is over; None before."""
    if state.turn.phase != "over":
        return None
    seats = range(len(state.players))
    keys = [rank_key(state, seat) for seat in seats]
    scores = [
        PlayerScore(
            seat=seat,
            total=keys[seat][0],
            breakdown=breakdown(state, seat),
            rank=1 + sum(1 for other in keys if other > keys[seat]),
        )
        for seat in seats
    ]
    winners = [score.seat for score in scores if score.rank == 1]
    best = max(key[0] for key in keys)
    tie_break = ""
    if len(winners) > 1:
        tie_break = SHARED_VICTORY
    elif sum(1 for key in keys if key[0] == best) > 1:
        tie_break = TIE_BROKEN
    return Outcome(scores=scores, winners=winners, tie_break=tie_break)
