"""Redis killed with SIGKILL and restarted (AOF, appendfsync always): nothing acknowledged is
lost, the facade answers Unavailable meanwhile, and facade and workers recover by themselves."""

from __future__ import annotations

import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
import redis
from redis.asyncio import Redis

from service import bootstrap
from service.adapters.store.redis_store import RedisEventStore
from service.core.ports.event_store import LeaseLost
from service.core.ports.records import NO_INBOX_ID, Batch, RoundRequest
from service.shared.errors import Unavailable
from service.shared.settings import Settings
from tests.fakes.race import race_config, register_race
from tests.integration.conftest import PLUGINS, Workers
from tests.unit.adapters.store_contract import GAME, LEASE_MS, command, create_game, submit

pytestmark = [pytest.mark.anyio, pytest.mark.redis]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class OwnRedis:
    """A redis-server of this test's own, with AOF fsynced on every write."""

    def __init__(self, data_dir: Path) -> None:
        self.port = free_port()
        self.data_dir = data_dir
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.data_dir),
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                "--save",
                "",
            ],
            stdout=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url)
        for _ in range(400):
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if self.process.poll() is not None:
                    raise RuntimeError("redis-server exited at start") from None
                time.sleep(0.025)  # nothing signals when a server starts listening
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait()


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    with tempfile.TemporaryDirectory() as data_dir:
        server = OwnRedis(Path(data_dir))
        server.start()
        yield server
        if server.process is not None and server.process.poll() is None:
            server.kill()


async def test_nothing_acknowledged_is_lost_and_everyone_recovers(own_redis: OwnRedis) -> None:
    register_race()
    settings = Settings(
        redis_url=own_redis.url, plugins=PLUGINS, lease_ttl_s=2.0, runner_slot_ttl_s=1.0,
        sweep_interval_s=0.2, sweep_grace_s=0.2, rate_per_seat=0,
    )  # fmt: skip
    workers = Workers(settings)
    workers.start(1)
    skald = await bootstrap.connect(settings)
    try:
        game_id = (await skald.commands.create_game("race", race_config(2, 1000))).game_id
        seat = (await skald.reads.turn(game_id, None)).to_act[0]
        await skald.commands.submit(game_id, seat, "before", {"type": "Move", "steps": 1}, "r")
        applied = await skald.commands.wait_outcome(game_id, "before", 20)

        own_redis.kill()
        with pytest.raises(Unavailable) as raised:
            await skald.commands.submit(
                game_id, 1 - seat, "during", {"type": "Move", "steps": 1}, "r"
            )
        own_redis.start()
        await skald.commands.submit(game_id, 1 - seat, "after", {"type": "Move", "steps": 1}, "r")
        after = await skald.commands.wait_outcome(game_id, "after", 20)

        assert applied.status == "applied"
        assert raised.value.status == 503 and raised.value.retry_after > 0
        assert await skald.commands.outcome(game_id, "before") == applied  # survived the kill
        assert after.status == "applied"
        assert msgspec.json.decode((await skald.reads.view(game_id, None))[1])["version"] == 7
    finally:
        await skald.close()
        workers.stop()


def aof_bytes(server: OwnRedis) -> int:
    return sum(path.stat().st_size for path in server.data_dir.rglob("*.aof"))


async def test_a_lease_is_kept_off_the_append_only_file_and_its_token_survives_a_restart(
    own_redis: OwnRedis,
) -> None:
    # Taking a lease makes the worker wait for no disk sync (nothing reaches the AOF), and a
    # restart that forgot the lease and its fence never hands out a token given before.
    client = Redis.from_url(own_redis.url)
    store = RedisEventStore(client, prefix="lease-aof:")
    try:
        await create_game(store)
        await submit(store, command("c1"))
        before = aof_bytes(own_redis)

        [first] = await store.open_round([RoundRequest(GAME)], LEASE_MS, 10)

        assert first is not None and await store.lease_held(GAME)
        assert aof_bytes(own_redis) == before
        await client.aclose()
        own_redis.kill()
        own_redis.start()
        client = Redis.from_url(own_redis.url)
        store = RedisEventStore(client, prefix="lease-aof:")
        assert not await store.lease_held(GAME)  # gone, as if it had expired

        [second] = await store.open_round([RoundRequest(GAME)], LEASE_MS, 10)

        assert second is not None and second.lease > first.lease
        assert [c.command_id for c in second.commands] == ["c1"]  # the submit was kept
        with pytest.raises(LeaseLost):
            await store.commit(GAME, Batch(first.lease, 3, NO_INBOX_ID, b"", [], []))
    finally:
        await client.aclose()
