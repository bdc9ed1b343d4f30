"""Ratings as OpenSkill computes them: the Plackett-Luce model with its default parameters.

A standing is a player's (mu, sigma) in one game and variant and their rated games; `display`
is OpenSkill's ordinal, mu - 3 sigma, the number leaderboards are ordered by.
"""

from __future__ import annotations

import msgspec
from openskill.models import PlackettLuce

from service.core.ratings.results import RatedResult

MODEL = PlackettLuce()


class Standing(msgspec.Struct, frozen=True, array_like=True):
    """A player's rating in one game and variant."""

    mu: float
    sigma: float
    games: int

    @property
    def display(self) -> float:
        """mu - 3 sigma (OpenSkill's ordinal)."""
        return MODEL.create_rating([self.mu, self.sigma]).ordinal()


def first_standing() -> Standing:
    """A player's standing before their first rated game in a game and variant."""
    return Standing(MODEL.mu, MODEL.sigma, 0)


def rate(result: RatedResult, before: dict[str, Standing]) -> dict[str, Standing]:
    """Every rated player's standing after the game, from their standings before it (players
    missing from `before` start at `first_standing`)."""
    current = [before.get(seat.player_id) or first_standing() for seat in result.seats]
    teams = [
        [MODEL.create_rating([standing.mu, standing.sigma], seat.player_id)]
        for standing, seat in zip(current, result.seats, strict=True)
    ]
    rated = MODEL.rate(teams, ranks=[float(seat.rank) for seat in result.seats])
    return {
        seat.player_id: Standing(team[0].mu, team[0].sigma, s.games + 1)
        for seat, team, s in zip(result.seats, rated, current, strict=True)
    }


STANDING_ENCODER = msgspec.msgpack.Encoder()
STANDING_DECODER = msgspec.msgpack.Decoder(Standing)
