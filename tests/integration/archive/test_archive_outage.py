"""A PostgreSQL outage while archiving loses nothing: the games stay in Redis, whole, and are
archived once the server is back. The outage is a proxy in front of the test's PostgreSQL,
closed (with every connection through it) and opened again; the server itself runs on."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import fakeredis
import msgspec
import pytest

from service import bootstrap
from service.core.ports.archive import ArchiveUnavailable
from tests.fakes.race import RaceGame
from tests.integration.archive.conftest import PG_URL, with_schema
from tests.integration.archive.test_cold_storage import (
    everything_read,
    played,
    redis_keys,
    wired,
)
from tests.unit.facade.harness import make_harness

pytestmark = pytest.mark.anyio


class Proxy:
    """A TCP proxy to 127.0.0.1:5432 on a port of its own, which can be cut and restored."""

    def __init__(self) -> None:
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []

    async def open(self) -> None:
        """Accept connections (on the same port as before, after a close)."""
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        """Refuse new connections and cut the open ones."""
        assert self._server is not None
        self._server.close()
        for writer in self._writers:
            writer.close()
        self._writers.clear()
        await self._server.wait_closed()

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        server_r, server_w = await asyncio.open_connection("127.0.0.1", 5432)
        self._writers += [client_w, server_w]
        await asyncio.gather(_pipe(client_r, server_w), _pipe(server_r, client_w))


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError, OSError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    writer.close()


async def test_an_outage_during_archiving_loses_nothing(
    fake_redis: fakeredis.aioredis.FakeRedis, pg_schema: str, race: RaceGame
) -> None:
    proxy = Proxy()
    await proxy.open()
    harness = make_harness(fake_redis, rate_per_seat=0)
    url = with_schema(PG_URL.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}"), pg_schema)
    archive = bootstrap.archive(msgspec.structs.replace(harness.skald.settings, archive_url=url))
    archiver, reads = wired(harness, archive)
    first = await played(harness, "race", 1)
    assert (await archiver.run()).archived == [first]  # the connection is open now
    second = await played(harness, "race", 2)
    before = await everything_read(harness, reads, second)
    keys: list[Any] = sorted(await redis_keys(harness, second))

    await proxy.close()
    report = await archiver.run()

    assert report.archived == [] and "cannot be reached" in report.kept[second]
    assert sorted(await redis_keys(harness, second)) == keys
    assert await everything_read(harness, reads, second) == before
    _, fresh = wired(harness, archive)
    with pytest.raises(ArchiveUnavailable):  # an archived game is unavailable, not missing
        await fresh.head(first)

    await proxy.open()
    assert (await archiver.run()).archived == [second]
    assert await redis_keys(harness, second) == []
    assert await everything_read(harness, reads, second) == before
    await archive.close()
    await proxy.close()
