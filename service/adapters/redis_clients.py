"""The event Redis: one server, or a Redis Cluster (`SKALD_REDIS_CLUSTER=1`).

Both are handed around typed as `redis.asyncio.Redis`: redis-py's `RedisCluster` answers the
same commands, pipelines, scripts and SCAN (over every master), and the few places that
must act differently on a cluster (the drain indexes' hash tag, sharded pub/sub, WAIT) ask
`is_cluster`.

On one Redis a blocking pool makes a call past its size wait for a free connection. redis-py's
cluster client has no such pool: each node keeps at most `max_connections` and a call past
them fails at once (`MaxConnectionsError`, a 503 with an empty message while every node is
up: about 100 concurrent requests per master). `BoundedCluster` waits instead: every call
takes a turn of its `CallBound` (as many as the connections setting), and each node may open
that many connections and a few more (pub/sub), so no call finds its node's pool empty.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import AsyncIterator
from typing import Any, cast

from redis._parsers.commands import AsyncCommandsParser
from redis.asyncio import Redis
from redis.asyncio.cluster import ClusterNode, ClusterPipeline, RedisCluster
from redis.asyncio.connection import Connection
from redis.exceptions import MaxConnectionsError

# The connections a client may use at once, and how long a call waits for one: on one Redis
# the blocking pool's size and wait, on a cluster its calls' (`SKALD_REDIS_CONNECTIONS`).
DEFAULT_CONNECTIONS = 256
POOL_WAIT_S = 10.0
# Connections a node may hold beyond the calls' bound: one pub/sub connection per master for
# each notifier (and the one it replaces after a failover), and a pipeline's commands retried
# one by one after a redirection while it holds its turn.
NODE_HEADROOM = 16

# Whether the running task (or the task that started it) already holds a turn: a call made
# inside another (a pipeline's retries) must not wait for a second one, which could wait for
# ever once every turn is held by such calls.
_holding: contextvars.ContextVar[bool] = contextvars.ContextVar("skald_holding_turn", default=False)


class NoTurn(MaxConnectionsError):
    """Every turn of a client stayed taken for its whole wait (an outage: 503)."""


class CallBound:
    """At most `size` calls at once; a call past them waits up to `wait_s` for a turn, then
    fails with `MaxConnectionsError` (a 503), as a blocking pool does."""

    def __init__(self, size: int, wait_s: float) -> None:
        if size < 1:
            raise ValueError(f"a client needs at least one connection, not {size}")
        self.size = size
        self.wait_s = wait_s
        self._free = asyncio.Semaphore(size)

    def turn(self) -> _Turn:
        """Hold one turn for the `async with` block (at once when the caller holds one)."""
        return _Turn(self)

    async def _take(self) -> None:
        if not self._free.locked():  # a turn is free: no timer to arm (every call pays it)
            await self._free.acquire()
            return
        try:
            async with asyncio.timeout(self.wait_s):
                await self._free.acquire()
        except TimeoutError:
            raise NoTurn(
                f"every one of the {self.size} connections to the Redis Cluster stayed busy "
                f"for {self.wait_s:g} s"
            ) from None


class _Turn:
    """One turn of a `CallBound`, as an async context manager (a class: a generator-based one
    cost every call a few microseconds more)."""

    __slots__ = ("bound", "token")

    def __init__(self, bound: CallBound) -> None:
        self.bound = bound
        self.token: contextvars.Token[bool] | None = None

    async def __aenter__(self) -> None:
        if _holding.get():
            return
        await self.bound._take()
        self.token = _holding.set(True)

    async def __aexit__(self, *exc: object) -> None:
        if self.token is not None:
            _holding.reset(self.token)
            self.bound._free.release()


class BoundedCluster(RedisCluster):
    """redis-py's cluster client whose calls and pipelines wait for a turn of `bound` rather
    than fail when a node's connections are all in use."""

    def __init__(self, *args: Any, bound: CallBound, **kwargs: Any) -> None:
        kwargs["max_connections"] = bound.size + NODE_HEADROOM  # per node
        super().__init__(*args, **kwargs)
        self.bound = bound
        self.commands_parser = _CommandTable()

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        """A command (a script call included), once a turn is free."""
        async with self.bound.turn():
            if self._initialize:
                # redis-py picks a command's routing before it loads the slot map: a script
                # called before then went to the default node, MOVED, and every fifth MOVED
                # closed every connection, those of calls in flight too (their scripts run
                # again by its retries). A client just started, or after a failover.
                await self.initialize()
            return await super().execute_command(*args, **kwargs)

    def pipeline(self, transaction: Any | None = None, shard_hint: Any | None = None) -> Any:
        """A pipeline whose execution waits for a turn."""
        if shard_hint:
            return super().pipeline(transaction, shard_hint)  # redis-py's refusal
        # redis-py's own ClusterPipeline is built the same way; its typing calls an attribute
        # that __init__ sets abstract.
        return _BoundedPipeline(self, transaction)  # type: ignore[abstract]


class _CommandTable(AsyncCommandsParser):
    """redis-py's table of commands (COMMAND), loaded once. redis-py loaded it again from the
    default node at every reload of the slot map: during a failover, a dead master still
    listed as the default failed every reload, and so every call, those of the healthy
    masters' slots too (503s until the replica took over)."""

    async def initialize(self, node: ClusterNode | None = None) -> None:
        if node is not None:
            self.node = node
        if not self.commands:
            await super().initialize(node)


class _BoundedPipeline(ClusterPipeline):
    async def execute(self, raise_on_error: bool = True, allow_redirections: bool = True) -> Any:
        client = cast(BoundedCluster, self.cluster_client)
        async with client.bound.turn():
            return await super().execute(raise_on_error, allow_redirections)


@contextlib.asynccontextmanager
async def node_connection(client: RedisCluster, node: ClusterNode) -> AsyncIterator[Connection]:
    """A connection of `node`'s pool for the block (the calls that go straight to a slot's
    master), taken in a turn of the client's bound when it has one."""
    bound = client.bound if isinstance(client, BoundedCluster) else None
    async with bound.turn() if bound is not None else contextlib.nullcontext():
        connection = node.acquire_connection()
        try:
            yield connection
        finally:
            node.release(connection)


def event_redis(
    url: str,
    cluster: bool,
    connections: int = DEFAULT_CONNECTIONS,
    wait_s: float = POOL_WAIT_S,
    **options: Any,
) -> Redis:
    """A client of the event data at `url` (on a cluster: any node, the others are found;
    its calls wait for one of `connections` turns)."""
    if cluster:
        bound = CallBound(connections, wait_s)
        return cast(Redis, BoundedCluster.from_url(url, bound=bound, **options))
    return Redis.from_url(url, **options)


def is_cluster(redis: object) -> bool:
    """Whether `redis` is a Redis Cluster client."""
    return isinstance(redis, RedisCluster)
