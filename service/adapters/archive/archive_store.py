"""The archive port: where finished games go once they leave Redis, one record per game.

Two adapters provide it: `directory_archive.DirectoryArchive` (a file per game under the data
directory, the embedded default) and `postgres_archive.PostgresArchive` (a table, for
deployments over several machines). Records are opaque bytes here (see `archive_record`).
"""

from __future__ import annotations

from typing import Protocol

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
