"""The final result of a game, common to every game."""

from __future__ import annotations

import msgspec


class PlayerScore(msgspec.Struct, frozen=True):
    """One seat's final score, with the points each rule gave."""

    seat: int
    total: int
    breakdown: dict[str, int]
    rank: int  # 1 is the winner; tied seats share a rank


class Outcome(msgspec.Struct, frozen=True):
    """Final scores and ranking; `winners` lists every seat ranked first."""

    scores: list[PlayerScore]
    winners: list[int]
    tie_break: str = ""
