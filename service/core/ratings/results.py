"""A finished game's rated result: which players it rates and in what order they finished.

The rule (docs/ratings.md):
- a game created with `rated: false`, or cancelled, or with fewer than two seats held by
  players at the end, rates nobody;
- a seat is rated when a player holds it (a guest's seat token and a bot rate nobody);
- seats whose players played to the end are ranked as the game ranked them (ties stay ties);
- a player whose seat a bot took over (resigned, forfeited on the clock, or abandoned after
  missed turns) is ranked below every player who played to the end, whatever the bot made of
  the seat; of several, the one who left earlier is ranked lower;
- a game in which a player's seat resigned, forfeited or was abandoned before that player made
  a move of their own is aborted: it rates nobody (as chess servers abort a game before both
  sides moved), so a puppet account that resigns at once cannot feed anyone rating points.
"""

from __future__ import annotations

from collections.abc import Collection

import msgspec

from contracts.outcome import Outcome

PLAYER_SEAT_PREFIX = b"p:"


class RatedSeat(msgspec.Struct, frozen=True, array_like=True):
    """One rated seat: the player holding it and their rank (1 is first; ties share one)."""

    seat: int
    player_id: str
    rank: int


class RatedResult(msgspec.Struct, frozen=True, array_like=True):
    """One game's entry in the ratings log."""

    game_id: str
    game: str
    variant: str
    seats: list[RatedSeat]


RESULT_ENCODER = msgspec.msgpack.Encoder()
RESULT_DECODER = msgspec.msgpack.Decoder(RatedResult)


def seat_players(seat_values: dict[int, bytes]) -> dict[int, str]:
    """The seats held by players, from the game's seats hash (seat -> stored value)."""
    return {
        seat: value[len(PLAYER_SEAT_PREFIX) :].decode()
        for seat, value in seat_values.items()
        if value.startswith(PLAYER_SEAT_PREFIX)
    }


def rated_result(
    game_id: str,
    game: str,
    variant: str,
    outcome: Outcome,
    players: dict[int, str],
    taken_over: list[int],
    left_before_moving: Collection[int] = (),
) -> RatedResult | None:
    """The rated result of a finished game, None when it rates nobody.

    `players`: seat -> player of every seat a player holds; `taken_over`: seats a bot took over
    mid-game, in the order it happened; `left_before_moving`: seats that resigned, forfeited or
    were abandoned before their player's first move (any of them a player's: aborted).
    """
    if any(seat in players for seat in left_before_moving):
        return None
    left = [seat for seat in dict.fromkeys(taken_over) if seat in players]
    game_rank = {score.seat: score.rank for score in outcome.scores}
    stayed = sorted(
        (seat for seat in players if seat not in left and seat in game_rank),
        key=lambda seat: (game_rank[seat], seat),
    )
    ranked: list[RatedSeat] = []
    rank = 0
    previous: int | None = None
    for seat in stayed:
        if game_rank[seat] != previous:
            rank += 1
            previous = game_rank[seat]
        ranked.append(RatedSeat(seat, players[seat], rank))
    for seat in reversed(left):  # the last to leave ranks highest of those who left
        rank += 1
        ranked.append(RatedSeat(seat, players[seat], rank))
    if len(ranked) < 2:
        return None
    return RatedResult(game_id, game, variant, ranked)
