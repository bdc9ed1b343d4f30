"""Seat rotation: seats 0 .. players - 1 sit round the table, and turns go clockwise (up)."""

from __future__ import annotations

from collections.abc import Callable


def next_seat(seat: int, players: int) -> int:
    """The seat after `seat`, clockwise."""
    return (seat + 1) % players


def seats_from(first: int, players: int) -> list[int]:
    """Every seat once, clockwise from `first`: the turn order a first player starts."""
    return [(first + step) % players for step in range(players)]


def next_seat_where(after: int, players: int, qualifies: Callable[[int], bool]) -> int | None:
    """The first seat clockwise after `after` (`after` itself last) that `qualifies`, or None
    when no seat does."""
    for step in range(1, players + 1):
        seat = (after + step) % players
        if qualifies(seat):
            return seat
    return None
