"""Ratings: the ledger's log and fold (`RatingsLog`), and the leaderboards and standings the
facade reads (`RatingsBoard`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Folded:
    """Where the fold stands: the last log place folded, and the reset epoch."""

    place: int
    epoch: int

    @classmethod
    def parse(cls, raw: str) -> Folded:
        place, _, epoch = raw.partition("@")
        return cls(int(place or 0), int(epoch or 0))

    def __str__(self) -> str:
        return f"{self.place}@{self.epoch}"


@dataclass(frozen=True)
class SeatUpdate:
    """One rated seat's new standing, leaderboard score and history entry."""

    player_id: str
    rating_key: str
    standing: bytes
    score: float
    place: int
    history_entry: bytes


class RatingsLog(Protocol):
    """The ratings keys under `prefix` on `redis`."""

    async def unlogged(self, game_ids: list[str]) -> list[str]:
        """Those of the games not logged yet."""
        ...

    async def reset(self, with_log: bool) -> None:
        """Drop every folded rating (and the log, `with_log`): the fold starts again at 0."""
        ...

    async def log_result(self, game_id: str, result: bytes | None) -> tuple[bool, int]:
        """Log a finished game's result once (None: it rates nobody); whether it was logged
        now, and its place in the log (0 for none)."""
        ...

    async def folded(self) -> Folded:
        """Where the fold stands."""
        ...

    async def entries(self, after: int, count: int) -> list[tuple[int, bytes]]:
        """Up to `count` log entries (place, encoded result) after place `after`, in order."""
        ...

    async def store_fold(self, expected: Folded, reached: Folded, seats: list[SeatUpdate]) -> bool:
        """Store the fold's updates and its new place, unless the fold moved meanwhile."""
        ...

    async def standings_of(self, pairs: list[tuple[str, str]]) -> dict[tuple[str, str], bytes]:
        """The stored standing of each (rating key, player) pair that has one: one round trip."""
        ...


class RatingsBoard(Protocol):
    """The ratings keys under `prefix` on `redis`."""

    async def board_page(self, rating_key: str, offset: int, limit: int) -> list[str]:
        """Player ids at places offset+1 .. offset+limit of a leaderboard, best first."""
        ...

    async def board_scores(self, rating_key: str, player_ids: list[str]) -> list[float]:
        """The leaderboard scores of players (0 for one not on it)."""
        ...

    async def board_after(
        self, rating_key: str, after: tuple[float, str] | None, limit: int
    ) -> tuple[int, list[tuple[str, float]]]:
        """(how many places come before, (player id, score) of up to `limit` players) of a
        leaderboard page, best first: from the top, or right after the player `after` names
        at the score it names, where that pair stands in the board's order (score down,
        then player id down, as Redis orders it) even if the player moved since. Atomic."""
        ...

    async def standings(self, rating_key: str, player_ids: list[str]) -> dict[str, bytes]:
        """The stored standing of each player who has one in this game and variant."""
        ...

    async def player_standings(self, player_id: str) -> dict[str, bytes]:
        """Every standing of a player, by rating key."""
        ...

    async def history_page(self, player_id: str, before: float, limit: int) -> list[bytes]:
        """Up to `limit` of the player's history entries before log place `before`, newest
        first."""
        ...
