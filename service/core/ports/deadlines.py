"""The deadlines index: every turn deadline not yet acted on, by when it passes (the drain adds
and drops them, the deadline sweeper turns due ones into timeout commands)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class DueDeadline:
    """One deadline: the seat of a game, the version that set it, when it passes (ms)."""

    game_id: str
    seat: int
    since: int
    at_ms: int

    @property
    def member(self) -> str:
        """Its member in the sorted set."""
        return f"{self.game_id}|{self.seat}|{self.since}"


class Deadlines(Protocol):
    """The deadlines sorted set."""

    async def add(self, game_id: str, deadlines: list[tuple[int, int, int]]) -> None:
        """Index (seat, since, deadline ms) deadlines of a game."""
        ...

    async def add_many(self, games: list[tuple[str, list[tuple[int, int, int]]]]) -> None:
        """Index the deadlines of several games in one call (a drain round's)."""
        ...

    async def drop(self, game_id: str, ended: list[tuple[int, int]]) -> None:
        """Unindex (seat, since) deadlines the game no longer waits on."""
        ...

    async def drop_game(self, game_id: str) -> None:
        """Unindex every deadline of a game that is over: those its stream names, and any a
        batch indexed but never committed (a lost lease, a failed commit), which the stream
        cannot name."""
        ...

    async def drop_many(self, games: list[tuple[str, list[tuple[int, int]]]]) -> None:
        """Unindex (seat, since) deadlines of several games in one call."""
        ...

    async def due(self, now_ms: int, limit: int) -> list[DueDeadline]:
        """Deadlines passed at `now_ms`, oldest first."""
        ...

    async def now_ms(self) -> int:
        """The Redis clock, in ms (every process's deadlines on one clock)."""
        ...

    async def remove_all(self, acted: list[DueDeadline]) -> None:
        """Forget deadlines acted on, in one call."""
        ...
