"""One script call on a Redis Cluster, sent straight to the master of its slot.

redis-py's `RedisCluster.execute_command` resolves a command's routing policy, its keys' slot,
its target nodes and its retries on every call: about 20 to 25 µs of Python per call on this
project's machine (a one-key script in a loop: about 80 µs through the cluster client, about
60 µs on a pooled connection of the slot's node). A Skald script touches one slot, whose node
the client already knows (its slot map), so the hot call (a command's submission) goes on a
connection of that node's pool instead. Everything unusual goes back through the cluster
client, which handles it as before: a slot that moved (MOVED, ASK: the script did not run
there), a cluster that is not ready (TRYAGAIN, CLUSTERDOWN, READONLY, MASTERDOWN), a script
the node lost (NOSCRIPT), a connection that failed (the client reconnects, refreshes its slot
map and retries, as it would have for the call itself: a submission sent again is recognised
by its command id), or a client whose slot map is not loaded yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import redis.exceptions
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript

_THROUGH_CLIENT = (
    redis.exceptions.MovedError,
    redis.exceptions.AskError,
    redis.exceptions.TryAgainError,
    redis.exceptions.ClusterDownError,
    redis.exceptions.NoScriptError,
    redis.exceptions.ReadOnlyError,
    redis.exceptions.MasterDownError,
)
# RuntimeError: uvloop's reply to a write on a socket closed under a connection being opened.
_BROKEN = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError, RuntimeError)


async def run_on_slot(
    client: RedisCluster, script: AsyncScript, keys: Sequence[Any], args: Sequence[Any]
) -> Any:
    """`script(keys, args)` on the master of `keys`' slot (all in one slot): its reply, or its
    error raised, exactly as through the cluster client."""
    if client._initialize or not keys:  # no slot map yet: the client loads it
        return await script(keys=keys, args=args)
    try:
        node = client.get_node_from_key(keys[0])
        connection = node.acquire_connection() if node is not None else None
    except (redis.exceptions.SlotNotCoveredError, redis.exceptions.MaxConnectionsError):
        node = connection = None
    if node is None or connection is None:
        return await script(keys=keys, args=args)
    try:
        await connection.send_packed_command(
            connection.pack_command("EVALSHA", script.sha, len(keys), *keys, *args)
        )
        reply = await connection.read_response()
    except _THROUGH_CLIENT:
        node.release(connection)
        return await script(keys=keys, args=args)
    except _BROKEN:
        await connection.disconnect()
        node.release(connection)
        return await script(keys=keys, args=args)
    except redis.exceptions.ResponseError:  # the script's error reply: raised, as before
        node.release(connection)
        raise
    except BaseException:  # cancelled mid-read: the connection is out of step, drop it
        await connection.disconnect()
        node.release(connection)
        raise
    node.release(connection)
    return reply
