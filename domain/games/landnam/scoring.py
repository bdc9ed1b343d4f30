"""Final scores and the ranking (decision 21): most points; ties by black, red and white
tokens, house points, then resource cards in hand; still tied, the win is shared."""

from __future__ import annotations

from contracts.outcome import Outcome
from domain.games.landnam.state import LandnamState
from domain.kernel.ranking import ranked

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
    return ranked(
        [breakdown(state, seat) for seat in seats],
        [rank_key(state, seat)[1:] for seat in seats],
        shared_victory=SHARED_VICTORY,
        tie_broken=TIE_BROKEN,
    )
