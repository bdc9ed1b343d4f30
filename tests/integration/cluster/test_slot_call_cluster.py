"""A script call sent straight to its slot's master (`slot_call.run_on_slot`) on a real Redis
Cluster: the same reply as through the cluster client, and the unusual cases handed back to
the client: a stale slot map (MOVED), a node that lost its scripts (NOSCRIPT), a broken
connection, a script's own error; and a round of one script call (`Scripts.run_all`) sent
the same way."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import cast

import pytest
import redis.exceptions
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from service.adapters.store.scripts import Scripts
from service.adapters.store.slot_call import run_on_slot
from tests.cluster.local_cluster import LocalCluster

pytestmark = [pytest.mark.anyio]

# Appends ARGV[1] to a list in the slot and returns its length; fails on "boom".
_SCRIPT = """
if ARGV[1] == 'boom' then return redis.error_reply('ERR boom') end
return redis.call('RPUSH', KEYS[1], ARGV[1]) + redis.call('EXISTS', KEYS[2])
"""


@pytest.fixture
async def client(redis_cluster: LocalCluster) -> AsyncIterator[RedisCluster]:
    cluster = RedisCluster.from_url(redis_cluster.url)
    await cluster.initialize()
    try:
        yield cluster
    finally:
        await cluster.aclose()


def _keys() -> list[str]:
    tag = uuid.uuid4().hex[:8]
    return [f"{{{tag}}}:list", f"{{{tag}}}:other"]


async def test_a_call_runs_once_on_its_slot_and_replies_as_the_client_does(
    client: RedisCluster,
) -> None:
    script = client.register_script(_SCRIPT)
    keys = _keys()
    assert await run_on_slot(client, script, keys, ["a"]) == 1
    assert await script(keys=keys, args=["b"]) == 2
    assert await run_on_slot(client, script, keys, ["c"]) == 3
    assert await client.lrange(keys[0], 0, -1) == [b"a", b"b", b"c"]


async def test_a_script_error_is_raised_and_the_connection_stays_usable(
    client: RedisCluster,
) -> None:
    script = client.register_script(_SCRIPT)
    keys = _keys()
    with pytest.raises(redis.exceptions.ResponseError, match="boom"):
        await run_on_slot(client, script, keys, ["boom"])
    assert await run_on_slot(client, script, keys, ["a"]) == 1
    assert await client.lrange(keys[0], 0, -1) == [b"a"]


async def test_a_stale_slot_map_is_followed_through_the_client_and_run_once(
    client: RedisCluster,
) -> None:
    script = client.register_script(_SCRIPT)
    keys = _keys()
    await script(keys=keys, args=["a"])  # loaded
    slot = client.keyslot(keys[0])
    right = client.nodes_manager.slots_cache[slot][0]
    wrong = next(node for node in client.get_primaries() if node.name != right.name)
    client.nodes_manager.slots_cache[slot] = [wrong]  # the map says another master

    assert await run_on_slot(client, script, keys, ["b"]) == 2
    assert await client.lrange(keys[0], 0, -1) == [b"a", b"b"]
    assert client.nodes_manager.slots_cache[slot][0].name == right.name  # map mended


async def test_a_node_that_lost_its_scripts_gets_them_again(client: RedisCluster) -> None:
    script = client.register_script(_SCRIPT)
    keys = _keys()
    assert await run_on_slot(client, script, keys, ["a"]) == 1
    await client.execute_command("SCRIPT", "FLUSH", target_nodes=client.get_primaries())
    assert await run_on_slot(client, script, keys, ["b"]) == 2
    assert await client.lrange(keys[0], 0, -1) == [b"a", b"b"]


async def test_a_broken_connection_is_dropped_and_the_call_goes_through_the_client(
    client: RedisCluster,
) -> None:
    script = client.register_script(_SCRIPT)
    keys = _keys()
    assert await run_on_slot(client, script, keys, ["a"]) == 1
    node = client.get_node_from_key(keys[0])
    assert node is not None
    for connection in list(node._free):  # the pooled sockets die under the client
        assert connection._writer is not None
        connection._writer.transport.abort()
    assert await run_on_slot(client, script, keys, ["b"]) == 2
    assert await client.lrange(keys[0], 0, -1) == [b"a", b"b"]


async def test_a_round_of_one_script_call_keeps_or_raises_its_error_as_a_pipeline_does(
    client: RedisCluster,
) -> None:
    scripts = Scripts(cast(Redis, client))
    script = client.register_script(_SCRIPT)
    keys = _keys()
    assert await scripts.run_all([(script, keys, ["a"])]) == [1]
    (kept,) = await scripts.run_all([(script, keys, ["boom"])], keep_errors=True)
    assert isinstance(kept, redis.exceptions.ResponseError) and "boom" in str(kept)
    with pytest.raises(redis.exceptions.ResponseError, match="boom"):
        await scripts.run_all([(script, keys, ["boom"])])
    assert await scripts.run_all([(script, keys, ["b"]), (script, keys, ["c"])]) == [2, 3]
    assert await client.lrange(keys[0], 0, -1) == [b"a", b"b", b"c"]
