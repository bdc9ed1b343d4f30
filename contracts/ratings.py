"""The ratings API's messages: a player's ratings, rating history, and leaderboards.

A rating is OpenSkill's (mu, sigma) for one game and variant; `display` is mu - 3 sigma, the
number leaderboards are ordered by (docs/ratings.md).
"""

from __future__ import annotations

import msgspec


class Rating(msgspec.Struct, frozen=True):
    """A player's rating in one game and variant."""

    game: str
    variant: str
    display: float  # mu - 3 sigma: what leaderboards are ordered by
    mu: float
    sigma: float
    games: int  # rated games played in this game and variant


class PlayerRatings(msgspec.Struct, frozen=True):
    """Every rating a player has, one per game and variant they played rated."""

    player_id: str
    ratings: list[Rating]


class RatingChange(msgspec.Struct, frozen=True):
    """One rated game in a player's history: where they finished and their rating after it."""

    game_id: str
    game: str
    variant: str
    seq: int  # the game's place in the order of every rated result
    rank: int  # 1 is first; tied seats share a rank
    seats: int  # rated seats in the game (players, not bots or guests)
    display: float
    mu: float
    sigma: float
    display_before: float


class RatingHistory(msgspec.Struct, frozen=True):
    """A page of a player's rated games, newest first; `cursor` fetches the next page."""

    player_id: str
    entries: list[RatingChange]
    cursor: str | None = None


class LeaderboardEntry(msgspec.Struct, frozen=True):
    """One row of a leaderboard."""

    place: int  # 1 is the top
    player_id: str
    name: str
    display: float
    mu: float
    sigma: float
    games: int


class Leaderboard(msgspec.Struct, frozen=True):
    """A page of a game and variant's leaderboard, best first; `cursor` fetches the next."""

    game: str
    variant: str
    entries: list[LeaderboardEntry]
    cursor: str | None = None
