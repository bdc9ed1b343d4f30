"""Acknowledge a write only once replicas hold it: the script, then `WAIT`, on one connection.

Redis replicates asynchronously: a master that dies right after answering can take the write
with it, and its replica, promoted, never had it. With `SKALD_WAIT_REPLICAS=N` (N > 0) the
script whose reply Skald acknowledges to a client (a command's submission) is followed by
`WAIT N <SKALD_WAIT_TIMEOUT_MS>` on the same
connection, so the reply is only used once N replicas have the write. Fewer replicas in time
raise `NotReplicated`, an outage (503): the client sends the command again, with the same id,
and the duplicate is acknowledged once it is replicated. docs/reliability.md has the figures.

`WAIT` counts the writes of its own connection, so it must follow the script on the same
connection: a pipeline of the two on one Redis; on a cluster a connection of the node that
serves the script's slot, taken from redis-py's node pool (in a turn of the client's bound).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import redis.exceptions
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript

from service.adapters.redis_clients import node_connection
from service.adapters.script_pipeline import pipelined, run_steps, script_step
from service.adapters.store.slot_call import run_on_slot


class NotReplicated(redis.exceptions.ConnectionError):
    """Fewer replicas than asked for acknowledged a write in time (a failover under way, or a
    replica down): nothing is acknowledged; the client tries again."""


@dataclass(frozen=True)
class ReplicaWait:
    """How many replicas must hold a write before it is acknowledged (0: do not wait)."""

    replicas: int = 0
    timeout_ms: int = 1000

    async def run(
        self, client: Redis, script: AsyncScript, keys: Sequence[Any], args: Sequence[Any]
    ) -> Any:
        """Run `script`; with replicas asked for, return its reply only once they hold it."""
        if self.replicas <= 0:
            if isinstance(client, RedisCluster):
                return await run_on_slot(client, script, keys, args)
            [reply] = await run_steps(client, [script_step(script, keys, args)])
            return reply
        for attempt in range(2):  # once more after loading the script (a restart lost it)
            try:
                if isinstance(client, RedisCluster):
                    reply, acked = await self._on_node(client, script, keys, args)
                else:
                    reply, acked = await self._pipelined(client, script, keys, args)
            except redis.exceptions.NoScriptError:
                if attempt:
                    raise
                await client.script_load(script.script)
                continue
            if int(acked) < self.replicas:
                raise NotReplicated(
                    f"{acked} of {self.replicas} replicas acknowledged within {self.timeout_ms} ms"
                )
            return reply
        raise AssertionError("unreachable")

    async def _pipelined(
        self, client: Redis, script: AsyncScript, keys: Sequence[Any], args: Sequence[Any]
    ) -> tuple[Any, Any]:
        reply, acked = await pipelined(
            client,
            [
                script_step(script, keys, args).words(),
                ("WAIT", self.replicas, self.timeout_ms),
            ],
        )
        for item in (reply, acked):
            if isinstance(item, Exception):
                raise item
        return reply, acked

    async def _on_node(
        self, client: RedisCluster, script: AsyncScript, keys: Sequence[Any], args: Sequence[Any]
    ) -> tuple[Any, Any]:
        node = client.get_node_from_key(keys[0])
        if node is None:  # the cluster's map has no master for the slot (mid-failover)
            raise redis.exceptions.SlotNotCoveredError(f"no node serves the slot of {keys[0]!r}")
        async with node_connection(client, node) as connection:
            try:
                await connection.send_packed_command(
                    connection.pack_commands(
                        [
                            ("EVALSHA", script.sha, len(keys), *keys, *args),
                            ("WAIT", self.replicas, self.timeout_ms),
                        ]
                    )
                )
                replies = []
                for _ in range(2):  # read both replies, even when the first is an error
                    try:
                        replies.append(await connection.read_response())
                    except redis.exceptions.ResponseError as exc:
                        replies.append(exc)
            except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError):
                await connection.disconnect()
                await client.nodes_manager.initialize()  # the slot may have a new master
                raise
            except RuntimeError as exc:  # uvloop: a socket closed under a connection being opened
                await connection.disconnect()
                await client.nodes_manager.initialize()
                raise redis.exceptions.ConnectionError(f"the connection closed: {exc}") from exc
        reply, acked = replies
        if isinstance(reply, redis.exceptions.MovedError | redis.exceptions.AskError):
            await client.nodes_manager.initialize()
            raise redis.exceptions.TryAgainError(f"the slot moved: {reply}")
        for item in (reply, acked):
            if isinstance(item, Exception):
                raise item
        return reply, acked
