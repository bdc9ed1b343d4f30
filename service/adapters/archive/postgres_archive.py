"""The archive in PostgreSQL (psycopg 3): one row per game, for deployments over several
machines. The table is created on first use; the URL may choose a schema with
`?options=-csearch_path%3D<schema>`.
"""

from __future__ import annotations

import asyncio
import contextlib

import psycopg

from service.core.ports.archive import ArchiveUnavailable

TABLE = "skald_archive"
CONNECT_TIMEOUT_S = 5

_CREATE = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    game_id     text PRIMARY KEY,
    record      bytea NOT NULL,
    archived_at timestamptz NOT NULL DEFAULT now()
)
"""
_PUT = f"""
INSERT INTO {TABLE} (game_id, record) VALUES (%s, %s)
ON CONFLICT (game_id) DO UPDATE SET record = EXCLUDED.record, archived_at = now()
"""
_GET = f"SELECT record FROM {TABLE} WHERE game_id = %s"
_IDS = f"SELECT game_id FROM {TABLE} ORDER BY game_id"


class PostgresArchive:
    """Archived games as rows of `skald_archive` on the server at `url`.

    One connection, opened on first use and opened again after an error (a server restart),
    used by one call at a time.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self._connection: psycopg.AsyncConnection[tuple[bytes]] | None = None
        self._lock = asyncio.Lock()

    async def put(self, game_id: str, record: bytes) -> None:
        """Insert or replace the game's row; committed when this returns."""
        async with self._lock:
            try:
                connection = await self._connected()
                async with connection.transaction():
                    await connection.execute(_PUT, (game_id, record))
            except psycopg.Error as exc:
                await self._drop()
                raise ArchiveUnavailable(f"PostgreSQL: {exc}") from None

    async def get(self, game_id: str) -> bytes | None:
        """The game's record, None when it has no row."""
        async with self._lock:
            try:
                connection = await self._connected()
                cursor = await connection.execute(_GET, (game_id,))
                row = await cursor.fetchone()
            except psycopg.Error as exc:
                await self._drop()
                raise ArchiveUnavailable(f"PostgreSQL: {exc}") from None
        return None if row is None else bytes(row[0])

    async def game_ids(self) -> list[str]:
        """Every archived game's id, sorted."""
        async with self._lock:
            try:
                connection = await self._connected()
                cursor = await connection.execute(_IDS)
                rows = await cursor.fetchall()
            except psycopg.Error as exc:
                await self._drop()
                raise ArchiveUnavailable(f"PostgreSQL: {exc}") from None
        return [row[0] if isinstance(row[0], str) else bytes(row[0]).decode() for row in rows]

    async def close(self) -> None:
        """Close the connection."""
        async with self._lock:
            await self._drop()

    async def _connected(self) -> psycopg.AsyncConnection[tuple[bytes]]:
        if self._connection is None or self._connection.closed:
            connection: psycopg.AsyncConnection[
                tuple[bytes]
            ] = await psycopg.AsyncConnection.connect(
                self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S
            )
            await connection.execute(_CREATE)
            self._connection = connection
        return self._connection

    async def _drop(self) -> None:
        if self._connection is not None:
            with contextlib.suppress(psycopg.Error):
                await self._connection.close()
            self._connection = None
