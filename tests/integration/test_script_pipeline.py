"""`pipelined` keeps its connections between calls: one the server closed, or one a cancelled
call left half-way, never answers the next call wrongly."""

from __future__ import annotations

import asyncio

import pytest
from fakeredis import FakeAsyncRedis
from redis.asyncio import Redis

from service.adapters.script_pipeline import pipelined, socket_writer
from service.shared.settings import Settings

pytestmark = [pytest.mark.anyio, pytest.mark.redis]


async def test_calls_go_over_one_kept_connection(event_client: Redis) -> None:
    [first] = await pipelined(event_client, [("CLIENT", "ID")])
    for _ in range(5):
        assert await pipelined(event_client, [("CLIENT", "ID")]) == [first]


async def test_words_hiredis_cannot_pack_go_as_redis_py_packs_them(event_client: Redis) -> None:
    words = ("ECHO", bytearray(b"abc"))  # hiredis's packer refuses a bytearray; redis-py's not
    assert await pipelined(event_client, [words, ("PING",)]) == [b"abc", b"PONG"]


async def test_a_connection_the_server_closed_is_reopened_for_the_next_call(
    event_client: Redis, core_settings: Settings
) -> None:
    [lane_id] = await pipelined(event_client, [("CLIENT", "ID")])
    pool_id = await event_client.client_id()  # a connection of the pool's own, idle now
    operator = Redis.from_url(core_settings.redis_url)  # closes both, as a restart would
    await operator.client_kill_filter(_id=lane_id)
    await operator.client_kill_filter(_id=pool_id)
    await operator.aclose()
    await asyncio.sleep(0.05)  # the closing reaches this process's event loop

    [again] = await pipelined(event_client, [("CLIENT", "ID")])
    assert again != lane_id
    assert await event_client.get("skald-test-absent-key") is None  # the pool's own recovers too


async def test_a_call_cancelled_before_its_reply_leaves_nothing_for_the_next(
    event_client: Redis, core_settings: Settings
) -> None:
    empty = f"{core_settings.key_prefix}empty"
    waiting = asyncio.create_task(pipelined(event_client, [("BLPOP", empty, 2)]))
    await asyncio.sleep(0.1)  # sent, its reply not come
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await event_client.rpush(empty, "late")  # would have been the cancelled call's reply

    assert await pipelined(event_client, [("PING",)]) == [b"PONG"]
    assert await event_client.lpop(empty) == b"late"


async def test_a_real_connection_is_written_straight_to_its_socket(event_client: Redis) -> None:
    await pipelined(event_client, [("PING",)])  # the lane now holds a connected connection
    connection = await event_client.connection_pool.get_connection()
    try:
        if not connection.is_connected:
            await connection.connect()
        assert socket_writer(connection) is not None
    finally:
        await event_client.connection_pool.release(connection)


async def test_a_stand_in_is_never_taken_for_a_socket() -> None:
    fake = FakeAsyncRedis()  # its writer has a `transport` too (fakeredis 2.41 and later)
    connection = await fake.connection_pool.get_connection()
    try:
        await connection.connect()
        assert connection.is_connected
        assert socket_writer(connection) is None
    finally:
        await fake.connection_pool.release(connection)
    assert await pipelined(fake, [("SET", "k", "v"), ("GET", "k")]) == [b"OK", b"v"]
    await fake.aclose()
