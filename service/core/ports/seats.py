"""A game's seats (token hashes and names), the lobby of games waiting for players, and the
sweeper's index of games with recently submitted commands."""

from __future__ import annotations

from typing import Protocol

from service.shared.errors import Conflict


class SeatsFull(Conflict):
    """Every seat of the game is taken."""


class Seats(Protocol):
    """Seat token hashes (SHA-256, never the token) and player names."""

    async def take(
        self, game_id: str, seat: int | None, token_hash: bytes, name: str
    ) -> tuple[int, int, int]:
        """Take a seat for a guest (a token hash) or a bot (`bot`): (seat, seats taken now,
        seats in the game); Conflict when not free."""
        ...

    async def check_records(self, game_id: str) -> None:
        """GameDamaged when a seat a player took (named in the meta) has lost its record."""
        ...

    async def names(self, game_id: str, seats: int) -> dict[int, str]:
        """The name each taken seat's player gave (kept in the meta as `n<seat>`)."""
        ...

    async def token_hashes(self, game_id: str) -> dict[int, bytes]:
        """Each taken seat's token hash."""
        ...


class Lobby(Protocol):
    """Open games (free seats, not over) by creation time, overall and per game."""

    async def open(self, game_id: str, game: str, created_ms: int) -> None:
        """List a game as open."""
        ...

    async def close(self, game_id: str, game: str) -> None:
        """Take a game out of the lobby (full or over)."""
        ...

    async def newest(self, game: str | None, limit: int) -> list[str]:
        """The ids of the newest open games."""
        ...


class PendingIndex(Protocol):
    """Games with recently submitted commands, stamped by the Redis clock (for the sweeper).

    The event store's `submit` marks a game here in the same step as it queues the command.
    On a Redis Cluster with drain shards each shard has its own (drain_shards.py): a game is
    marked in its shard's, and the sweeper reads them all."""

    async def now_ms(self) -> int:
        """The Redis clock, in ms."""
        ...

    async def marked_before(self, before_ms: int, limit: int) -> list[tuple[str, int]]:
        """(game id, mark) of games last marked at or before `before_ms`, oldest first."""
        ...

    async def forget(self, game_id: str, mark: int) -> None:
        """Drop a game from the index unless it was marked again since `mark`."""
        ...


class StreamTickets(Protocol):
    """Issue and redeem stream tickets on Redis."""

    async def issue(
        self, game_id: str, seat: int, ttl_s: int, bound: tuple[str, bytes] | None = None
    ) -> str:
        """A new ticket for `seat` of `game_id`, valid for `ttl_s` seconds and one use; `bound`
        (player id, token hash) names the player's token it was minted with, if any."""
        ...

    async def redeem(
        self, ticket: str, keep_s: int | None = None
    ) -> tuple[str, int, tuple[str, bytes] | None] | None:
        """(game id, seat, bound) the ticket was issued for, consuming it (with `keep_s`: kept
        for that many seconds more, to reopen the same stream); None if unknown or used.
        `bound` is None for a ticket minted with a seat token (or stored before)."""
        ...

    async def keep(self, ticket: str, keep_s: int) -> None:
        """Keep a redeemed stream ticket `keep_s` seconds more (its stream is still open)."""
        ...
