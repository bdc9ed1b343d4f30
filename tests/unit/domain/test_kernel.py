"""What the games share (domain/kernel): ranking final scores and seat rotation."""

from __future__ import annotations

from contracts.outcome import PlayerScore
from domain.kernel.ranking import ranked
from domain.kernel.seats import next_seat, next_seat_where, seats_from


def test_seats_tied_on_everything_share_a_rank_and_the_next_rank_skips() -> None:
    points = [{"a": 5}, {"a": 3, "b": 2}, {"a": 1}]

    result = ranked(points, [(1,), (1,), (0,)], shared_victory="shared", tie_broken="broken")

    assert result.scores == [
        PlayerScore(seat=0, total=5, breakdown={"a": 5}, rank=1),
        PlayerScore(seat=1, total=5, breakdown={"a": 3, "b": 2}, rank=1),
        PlayerScore(seat=2, total=1, breakdown={"a": 1}, rank=3),
    ]
    assert (result.winners, result.tie_break) == ([0, 1], "shared")


def test_a_tie_breaker_decides_a_tie_on_points_in_order() -> None:
    points = [{"a": 4}, {"a": 4}, {"a": 4}]

    result = ranked(points, [(2, 0), (2, 1), (1, 9)], shared_victory="shared", tie_broken="broken")

    assert [score.rank for score in result.scores] == [2, 1, 3]
    assert (result.winners, result.tie_break) == ([1], "broken")


def test_a_clear_winner_needs_no_tie_break() -> None:
    result = ranked([{"a": 1}, {"a": 2}], [(9,), (0,)], shared_victory="s", tie_broken="b")

    assert (result.winners, result.tie_break) == ([1], "")


def test_seats_turn_clockwise_round_the_table() -> None:
    assert [next_seat(seat, 3) for seat in range(3)] == [1, 2, 0]
    assert seats_from(2, 4) == [2, 3, 0, 1]


def test_the_next_seat_that_qualifies_comes_back_round_to_the_seat_itself_last() -> None:
    out = {0, 2}

    assert next_seat_where(3, 4, lambda seat: seat not in out) == 1
    assert next_seat_where(1, 4, lambda seat: seat == 1) == 1
    assert next_seat_where(1, 4, lambda seat: False) is None
