"""The rule that turns a finished game into a rated result: who is rated, and in what order."""

from __future__ import annotations

from contracts.outcome import Outcome, PlayerScore
from service.core.ratings.results import RatedSeat, rated_result, seat_players


def outcome(*ranks: int) -> Outcome:
    """An outcome giving seat i the rank ranks[i]."""
    scores = [PlayerScore(seat, 10 - rank, {}, rank) for seat, rank in enumerate(ranks)]
    return Outcome(scores, [s.seat for s in scores if s.rank == 1])


def test_only_seats_players_hold_are_rated_in_the_games_order() -> None:
    seats = {0: b"p:ada", 1: b"bot", 2: b"\x01" * 32, 3: b"p:bo"}  # a bot and a guest
    players = seat_players(seats)
    assert players == {0: "ada", 3: "bo"}
    result = rated_result("g", "race", "standard", outcome(3, 1, 2, 4), players, [])
    assert result is not None
    assert result.seats == [RatedSeat(0, "ada", 1), RatedSeat(3, "bo", 2)]


def test_ties_stay_ties_and_ranks_close_up() -> None:
    players = {0: "a", 1: "b", 2: "c", 3: "d", 4: "e"}
    result = rated_result("g", "landnam", "standard", outcome(2, 1, 2, 5, 1), players, [])
    assert result is not None
    ranks = {seat.player_id: seat.rank for seat in result.seats}
    assert ranks == {"b": 1, "e": 1, "a": 2, "c": 2, "d": 3}


def test_a_seat_a_bot_took_over_ranks_below_those_who_played_on() -> None:
    players = {0: "a", 1: "b", 2: "c", 3: "d"}
    # Seat 0's bot won the game, seat 2 left first, then seat 0.
    result = rated_result("g", "race", "standard", outcome(1, 3, 2, 4), players, [2, 0, 2])
    assert result is not None
    assert [(s.player_id, s.rank) for s in result.seats] == [
        ("b", 1),
        ("d", 2),
        ("a", 3),
        ("c", 4),
    ]


def test_a_game_with_fewer_than_two_players_rates_nobody() -> None:
    assert rated_result("g", "race", "standard", outcome(1, 2), {0: "a"}, []) is None
    assert rated_result("g", "race", "standard", outcome(1, 2), {}, []) is None
