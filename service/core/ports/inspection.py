"""What the store holds of one game beyond its record (which keys exist, its seats, whether a
runner will come for it), read by verification, and the steps a repair or a quarantine takes
on those keys."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class GameKeysState:
    """One game's keys as found at one moment (the Redis clock's `now_ms`)."""

    present: frozenset[str]  # the key families that exist (meta, events, inbox, ..., lease)
    quarantine: str | None  # the operator's reason, while quarantined
    seat_records: frozenset[int]  # seats with a stored token hash
    named_seats: frozenset[int]  # seats with a player's name in the meta (taken once)
    players_seats: dict[str, list[int]]  # each player holding a seat: their seats (one)
    ready_since_ms: int | None  # when it was marked ready for a runner, if it is
    live_runners: int  # drain runners whose slot has not expired
    now_ms: int


class KeyInspector(Protocol):
    """Reads a game's keys as they are now."""

    async def inspect(self, game_id: str) -> GameKeysState:
        """The state of the game's keys now."""
        ...

    async def deadlines_of(self, game_id: str) -> list[str]:
        """The game's members in the deadlines index."""
        ...


class KeyRepairs(KeyInspector, Protocol):
    """A repair's and a quarantine's steps on a game's keys."""

    async def quarantine(self, game_id: str, reason: str) -> bool:
        """Set the game's meta, views and command records aside; False when they already are."""
        ...

    async def release(self, game_id: str) -> bool:
        """Put a quarantined game's keys back (and mark it for a worker); False when it was
        not quarantined."""
        ...

    async def set_head_hash(self, game_id: str, chain_value: bytes) -> None:
        """Set the head's chain value."""
        ...

    async def mark_waiting(self, game_id: str) -> None:
        """Mark the game ready and pending, so a worker comes for its waiting commands."""
        ...
