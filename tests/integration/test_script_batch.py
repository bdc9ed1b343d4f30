"""Script calls of one event-loop turn leave in one round trip, each answered on its own."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from service.adapters.embedded_redis import EmbeddedRedis
from service.adapters.store.script_batch import ScriptBatch
from service.adapters.store.scripts import Scripts
from service.shared.settings import Settings

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

# Appends its argument to a list and answers the list's length; refuses "bad" with an error.
PUSH = """
if ARGV[1] == 'bad' then return redis.error_reply('ERR refused ' .. ARGV[1]) end
return redis.call('RPUSH', KEYS[1], ARGV[1])
"""


def batch_of(client: Redis) -> tuple[ScriptBatch, Any]:
    push: Any = client.register_script(PUSH)
    return ScriptBatch(Scripts(client)), push


async def test_calls_made_together_share_one_connection_and_keep_their_order(
    event_client: Redis, core_settings: Settings
) -> None:
    batch, push = batch_of(event_client)
    key = f"{core_settings.key_prefix}list"
    await event_client.script_load(PUSH)
    pool = event_client.connection_pool
    before = len(pool._available_connections) + len(pool._in_use_connections)

    replies = await asyncio.gather(*(batch.run(push, [key], [str(n)]) for n in range(20)))

    # One connection at most was opened for the twenty calls (the one pipelined calls keep).
    assert len(pool._available_connections) + len(pool._in_use_connections) <= before + 1
    assert replies == list(range(1, 21))
    assert await event_client.lrange(key, 0, -1) == [str(n).encode() for n in range(20)]


async def test_an_error_is_its_callers_alone(event_client: Redis, core_settings: Settings) -> None:
    batch, push = batch_of(event_client)
    key = f"{core_settings.key_prefix}list"

    replies = await asyncio.gather(
        batch.run(push, [key], ["a"]),
        batch.run(push, [key], ["bad"]),
        batch.run(push, [key], ["b"]),
        return_exceptions=True,
    )

    assert replies[0] == 1 and replies[2] == 2
    assert isinstance(replies[1], ResponseError) and "refused bad" in str(replies[1])
    assert await event_client.lrange(key, 0, -1) == [b"a", b"b"]


@pytest.fixture
async def own_client(tmp_path: Path) -> AsyncIterator[Redis]:
    """A client of a Redis of this test's own: flushing its scripts touches no one else's."""
    with EmbeddedRedis(tmp_path) as server:
        client = Redis.from_url(server.url)
        try:
            yield client
        finally:
            await client.aclose()


async def test_scripts_redis_lost_are_loaded_and_run_once(own_client: Redis) -> None:
    batch, push = batch_of(own_client)
    key = "list"
    await own_client.script_flush()  # as after a restart

    together = await asyncio.gather(batch.run(push, [key], ["a"]), batch.run(push, [key], ["b"]))
    await own_client.script_flush()
    alone = await batch.run(push, [key], ["c"])

    assert (together, alone) == ([1, 2], 3)
    assert await own_client.lrange(key, 0, -1) == [b"a", b"b", b"c"]


async def test_a_call_cancelled_before_its_batch_leaves_is_not_sent(
    event_client: Redis, core_settings: Settings
) -> None:
    batch, push = batch_of(event_client)
    key = f"{core_settings.key_prefix}list"

    kept = asyncio.ensure_future(batch.run(push, [key], ["kept"]))
    dropped = asyncio.ensure_future(batch.run(push, [key], ["dropped"]))
    await asyncio.sleep(0)  # both queued; the batch leaves on the loop's next turn
    dropped.cancel()

    assert await kept == 1
    with pytest.raises(asyncio.CancelledError):
        await dropped
    assert await event_client.lrange(key, 0, -1) == [b"kept"]


async def test_a_connection_failure_reaches_every_caller(core_settings: Settings) -> None:
    unreachable = Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.5)
    batch, push = batch_of(unreachable)

    replies = await asyncio.gather(
        batch.run(push, ["k"], ["a"]), batch.run(push, ["k"], ["b"]), return_exceptions=True
    )

    assert all(isinstance(reply, RedisConnectionError) for reply in replies), replies
    await unreachable.aclose()
