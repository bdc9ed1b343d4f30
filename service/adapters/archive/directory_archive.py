"""The archive in a directory: one file per game (the embedded default, under the data dir).

Files are spread over 256 subdirectories by a hash of the game id (no directory grows past a
few thousand entries at millions of games). A record is written to a temporary file, flushed
to disk, then renamed over its name and the directory synced: a crash leaves the old file or
the new one, never a torn one.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
from pathlib import Path

from service.core.ports.archive import ArchiveUnavailable

SUFFIX = ".skald"


class DirectoryArchive:
    """Archived games as files under `root`."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def path(self, game_id: str) -> Path:
        """Where one game's record lives."""
        shard = hashlib.sha256(game_id.encode()).hexdigest()[:2]
        return self.root / shard / f"{game_id}{SUFFIX}"

    async def put(self, game_id: str, record: bytes) -> None:
        """Write the record durably (temporary file, fsync, rename, directory fsync)."""
        try:
            await asyncio.to_thread(self._write, self.path(game_id), record)
        except OSError as exc:
            raise ArchiveUnavailable(f"cannot write {self.path(game_id)}: {exc}") from None

    async def get(self, game_id: str) -> bytes | None:
        """The record, None when there is no file for the game."""
        try:
            return await asyncio.to_thread(self._read, self.path(game_id))
        except OSError as exc:
            raise ArchiveUnavailable(f"cannot read {self.path(game_id)}: {exc}") from None

    async def game_ids(self) -> list[str]:
        """Every archived game's id (one file per game), sorted."""
        try:
            paths = await asyncio.to_thread(lambda: list(self.root.glob(f"*/*{SUFFIX}")))
        except OSError as exc:
            raise ArchiveUnavailable(f"cannot list {self.root}: {exc}") from None
        return sorted(path.name[: -len(SUFFIX)] for path in paths)

    async def close(self) -> None:
        """Nothing to release."""

    @staticmethod
    def _write(path: Path, record: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            with open(temporary, "wb") as file:
                file.write(record)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)
        directory = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)

    @staticmethod
    def _read(path: Path) -> bytes | None:
        try:
            return path.read_bytes()
        except FileNotFoundError:
            return None
