"""Archives for the cold-storage tests: a directory, and PostgreSQL on a schema of the test's
own (dropped after), on the server at SKALD_TEST_PG_URL (default 127.0.0.1:5432, db `test`)."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest

from service.adapters.archive.directory_archive import DirectoryArchive
from service.adapters.archive.postgres_archive import PostgresArchive
from service.core.ports.archive import ArchiveStore

PG_URL = os.environ.get("SKALD_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")


def with_schema(url: str, schema: str) -> str:
    """The URL with every connection's search path set to `schema`."""
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}options={quote(f'-csearch_path={schema}')}"


@pytest.fixture
def pg_schema() -> Iterator[str]:
    """A fresh schema on the test PostgreSQL, dropped after the test."""
    schema = f"skald_t_{uuid.uuid4().hex[:12]}"
    try:
        admin = psycopg.connect(PG_URL, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as exc:
        pytest.skip(f"no PostgreSQL at {PG_URL}: {exc}")
    with admin:
        admin.execute(f"CREATE SCHEMA {schema}")
        try:
            yield schema
        finally:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["directory", "postgres"])
async def make_archive(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[Callable[[], ArchiveStore]]:
    """A factory of archive stores on one directory, or one PostgreSQL schema."""
    made: list[ArchiveStore] = []
    if request.param == "directory":
        root = tmp_path / "archive"

        def factory() -> ArchiveStore:
            made.append(DirectoryArchive(root))
            return made[-1]

        yield factory
    else:
        url = with_schema(PG_URL, request.getfixturevalue("pg_schema"))

        def factory() -> ArchiveStore:
            made.append(PostgresArchive(url))
            return made[-1]

        yield factory
    for archive in made:
        await archive.close()
