"""The archive's ports: where finished games go once they leave Redis, one record per game
(`ArchiveStore`), and the finished games still in Redis that the archiver moves (`HotGames`).

Two adapters provide `ArchiveStore` (the adapters' archive package): `DirectoryArchive` (a file per
game under the data directory, the embedded default) and `PostgresArchive` (a table, for
deployments over several machines). Records are opaque bytes here (see `archive_record`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from service.core.ports.archive_record import ArchivedGame
from service.core.ports.event_store import EventStore
from service.core.ports.records import NO_INBOX_ID
from service.shared.errors import Unavailable


class ArchiveUnavailable(Unavailable):
    """The archive could not be read or written (a server down, a directory not writable)."""

    def __init__(self, reason: str) -> None:
        super().__init__("archive.unavailable", f"the archive cannot be reached: {reason}")


class ArchiveStore(Protocol):
    """Archived games' records by game id."""

    async def put(self, game_id: str, record: bytes) -> None:
        """Store (or replace) a game's record durably; ArchiveUnavailable when it cannot."""
        ...

    async def get(self, game_id: str) -> bytes | None:
        """A game's record, None when the game was never archived; ArchiveUnavailable."""
        ...

    async def game_ids(self) -> list[str]:
        """Every archived game's id, sorted; ArchiveUnavailable."""
        ...

    async def close(self) -> None:
        """Release connections (a no-op where there are none)."""
        ...


def finished_at_ms(cursor: str, created: str) -> int:
    """When a finished game's last command was received (inbox ids are Redis-clock ms), or
    when it was created if it received none (0 when neither can be read: due at once)."""
    try:
        if cursor and cursor != NO_INBOX_ID:
            return int(cursor.split("-", 1)[0])
        return int(datetime.fromisoformat(created.replace("Z", "+00:00")).timestamp() * 1000)
    except ValueError:
        return 0


class HotGames(Protocol):
    """Games' keys under `prefix` on `redis`, as the archiver reads and drops them."""

    async def finished_games(self) -> dict[str, int]:
        """The games whose meta says they are over (a SCAN over meta keys), each with when it
        finished by `finished_at_ms`."""
        ...

    async def snapshot(self, game_id: str) -> tuple[ArchivedGame, list[bytes]] | None:
        """The game as an archive record, and each event's stored chain value; None when it
        has no meta (never was, archived already, or quarantined)."""
        ...

    async def drop(self, archived: ArchivedGame) -> bool:
        """Delete the game's keys if it is still as archived; True when deleted."""
        ...

    async def claim_run(self, owner: str, ttl_ms: int) -> bool:
        """Claim the next scheduled run for `owner` (one archiver per interval among every
        worker); False when another claimed it less than `ttl_ms` ago."""
        ...

    async def now_ms(self) -> int:
        """The Redis clock, in ms."""
        ...


class HotStore(EventStore, Protocol):
    """The event store the archive-backed store falls back from: every store port, and what
    tells a game still in the store from one that left it."""

    async def token_hashes(self, game_id: str) -> dict[int, bytes]:
        """Each taken seat's token hash, as stored."""
        ...

    async def holds(self, game_id: str) -> bool:
        """Whether the game's meta record is in the store (a miss for a game still there is a
        real miss, not a reason to ask the archive)."""
        ...
