"""One script call on a Redis Cluster, sent straight to the master of its slot.

redis-py's `RedisCluster.execute_command` resolves a command's routing policy, its keys' slot,
its target nodes and its retries on every call: about 20 to 25 µs of Python per call on this
project's machine (a one-key script in a loop: about 80 µs through the cluster client, about
60 µs on a pooled connection of the slot's node). A Skald script touches one slot, whose node
the client already knows (its slot map), so the hot call (a command's submission) goes on a
connection of that node's pool instead, in a turn of the client's bound like any other call.
Everything unusual goes back through the cluster client, which handles it as before: a slot
that moved (MOVED, ASK: the script did not run there), a cluster that is not ready (TRYAGAIN,
CLUSTERDOWN, READONLY, MASTERDOWN), a script the node lost (NOSCRIPT), a connection that
failed (the client reconnects, refreshes its slot map and retries, as it would have for the
call itself: a submission sent again is recognised by its command id), or a client whose slot
map is not loaded yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import redis.exceptions
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.commands.core import AsyncScript

from service.adapters.redis_clients import NoTurn, node_connection

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
    except redis.exceptions.SlotNotCoveredError:
        node = None
    if node is not None:
        answered, reply = await _on_node(client, node, script, keys, args)
        if answered:
            return reply
    return await script(keys=keys, args=args)


async def _on_node(
    client: RedisCluster,
    node: ClusterNode,
    script: AsyncScript,
    keys: Sequence[Any],
    args: Sequence[Any],
) -> tuple[bool, Any]:
    """(True, the reply) of the script on `node`, or (False, None) when the call is to go
    through the cluster client instead (the script did not run, or may be run again)."""
    try:
        async with node_connection(client, node) as connection:
            try:
                await connection.send_packed_command(
                    connection.pack_command("EVALSHA", script.sha, len(keys), *keys, *args)
                )
                return True, await connection.read_response()
            except _THROUGH_CLIENT:
                return False, None
            except _BROKEN:
                await connection.disconnect()
                return False, None
            except redis.exceptions.ResponseError:  # the script's error reply: raised, as before
                raise
            except BaseException:  # cancelled mid-read: the connection is out of step, drop it
                await connection.disconnect()
                raise
    except NoTurn:  # every connection stayed busy: an outage, not a reason to wait again
        raise
    except redis.exceptions.MaxConnectionsError:  # the node's pool is full: the client's way
        return False, None
