"""Script calls and plain commands in one round trip: the one way Skald pipelines to Redis.

Two costs of redis-py's own pipelines are left out here:
- they check that every registered script they hold is loaded (SCRIPT EXISTS) before sending
  them, a second round trip each time: here each script goes as a plain EVALSHA, and a call
  refused because Redis lost its scripts (a restart, a flush) did not run, and is run again
  once its script is loaded;
- on one Redis, their per-pipeline machinery (a command stack, a response callback looked up
  per reply, argument encoding in Python) cost about as much CPU as the round trip itself
  (250 µs against 130 µs a call, measured in docs/benchmarks.md): `pipelined` packs the
  commands with hiredis's C packer, sends them on a connection of the client's own pool and
  reads the replies raw, under the client's retry policy (a broken connection is dropped and
  the exchange tried again, as redis-py's pipelines do). A Redis Cluster client pipelines
  through redis-py, which routes each command by its keys.

A third cost is the pool's, paid twice per call: redis-py's pool takes a lock, records
connection counts for its metrics and dispatches an event each time a connection is taken or
given back, and its send runs under `asyncio.wait_for`, a task of its own (one more turn of the
event loop) per call. A light-load move crosses three such calls on its way (the API's submit,
the worker's open and commit), in processes that idle between moves and run that code cold:
each take cost about 90 µs there (docs/benchmarks.md). So the connections `pipelined` uses are
taken from the pool once and kept (`_Lane`, a few per pool and process, still counted by the
pool and closed with it); each is checked before use as the pool checks it (a connection with
unread data or closed by the server is reconnected), and the commands are written straight to
it when the socket takes them at once (else sent through redis-py, under its write timeout).
"""

from __future__ import annotations

import asyncio
import os
import weakref
from collections.abc import Sequence
from typing import Any

from hiredis import pack_command
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import AbstractConnection, ConnectionPool
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError


class Step:
    """One command of a pipeline: a script call (`script`, `keys`, `args`), or a plain
    command (`script` None, the command's words in `args`)."""

    __slots__ = ("args", "keys", "script")

    def __init__(
        self, script: AsyncScript | None, keys: Sequence[Any], args: Sequence[Any]
    ) -> None:
        self.script = script
        self.keys = keys
        self.args = args

    def words(self) -> tuple[Any, ...]:
        """The command as sent."""
        if self.script is None:
            return tuple(self.args)
        return ("EVALSHA", self.script.sha, len(self.keys), *self.keys, *self.args)


def script_step(script: Any, keys: Sequence[Any], args: Sequence[Any]) -> Step:
    """A script call."""
    return Step(script, keys, args)


def command_step(*words: Any) -> Step:
    """A plain command."""
    return Step(None, (), words)


async def run_steps(redis: Redis, steps: Sequence[Step], keep_errors: bool = False) -> list[Any]:
    """Run the steps in one round trip (a pipeline, not a transaction: each script is atomic
    by itself), in order; their replies. A script refused for want of loading is loaded and
    run again, after the others. Any other error reply is raised; with `keep_errors` a
    script's error reply is returned in its place instead (a plain command's is raised)."""
    if not steps:
        return []
    replies = await pipelined(redis, [step.words() for step in steps])
    lost = [n for n, reply in enumerate(replies) if isinstance(reply, NoScriptError)]
    if lost:
        scripts = {id(steps[n].script): steps[n].script for n in lost}
        await _load(redis, [script.script for script in scripts.values() if script is not None])
        again = await pipelined(redis, [steps[n].words() for n in lost])
        for n, reply in zip(lost, again, strict=True):
            replies[n] = reply
    for step, reply in zip(steps, replies, strict=True):
        if isinstance(reply, Exception) and not (keep_errors and step.script is not None):
            raise reply
    return replies


async def _load(redis: Redis, sources: Sequence[Any]) -> None:
    """Load scripts Redis lost: on one Redis over the connections the calls go through (those
    of the pool may be stale after a restart), on a cluster on every master."""
    if isinstance(redis, RedisCluster):
        for source in sources:
            await redis.script_load(source)
        return
    for reply in await pipelined(redis, [("SCRIPT", "LOAD", source) for source in sources]):
        if isinstance(reply, Exception):
            raise reply


async def pipelined(redis: Redis, commands: Sequence[Sequence[Any]]) -> list[Any]:
    """Send `commands` in one round trip; their replies in order, an error reply (a
    `ResponseError`) in its command's place. A broken connection raises."""
    if isinstance(redis, RedisCluster):
        async with redis.pipeline(transaction=False) as pipe:
            for command in commands:
                pipe.execute_command(*command)
            replies: list[Any] = await pipe.execute(raise_on_error=False)
        return replies
    lane = _lane(redis.connection_pool)
    connection = await lane.take()
    try:
        packed = _packed(connection, commands)
        return await connection.retry.call_with_retry(
            lambda: _exchange(connection, packed, len(commands)),
            lambda error: lane.lost(connection),
        )
    finally:
        await lane.give_back(connection)


# Connections a lane keeps between calls; more at once are taken from the pool and given back.
LANE_KEPT = 4


class _Lane:
    """Connections of one pool kept out of its take-and-give-back for `pipelined` (see the
    module): taken from the pool once, in its count of connections in use, so they close
    with it."""

    def __init__(self, pool: ConnectionPool) -> None:
        self.pool: Any = pool
        self.pid = os.getpid()
        self.idle: list[AbstractConnection] = []

    async def take(self) -> AbstractConnection:
        """A connection ready to send a command on."""
        if not self.idle:
            taken: AbstractConnection = await self.pool.get_connection()
            return taken
        connection = self.idle.pop()
        # As the pool checks a connection it hands out: one with a reply left unread or
        # closed by the server (Redis restarted) starts afresh, connected by its next send.
        # (`can_read` since redis-py 8, earlier `can_read_destructive`.)
        check = getattr(connection, "can_read", None) or connection.can_read_destructive
        try:
            stale = connection.is_connected and await check()
        except (RedisConnectionError, RedisTimeoutError, OSError):
            stale = True
        if stale:
            await self.lost(connection)
        return connection

    async def lost(self, connection: AbstractConnection) -> None:
        """Drop a connection the server closed or broke (it reconnects on its next send), and
        the pool's idle ones with it: they went the same way (a restart), and redis-py's pool
        can hand one out again (seen with redis-py 8.1: a command on it fails)."""
        await connection.disconnect()
        await self.pool.disconnect(inuse_connections=False)

    async def give_back(self, connection: AbstractConnection) -> None:
        """Keep the connection for the next call, or give it back to the pool."""
        if len(self.idle) < LANE_KEPT:
            self.idle.append(connection)
        else:
            await self.pool.release(connection)


_LANES: weakref.WeakKeyDictionary[ConnectionPool, _Lane] = weakref.WeakKeyDictionary()


def _lane(pool: ConnectionPool) -> _Lane:
    lane = _LANES.get(pool)
    if lane is None or lane.pid != os.getpid():
        # A forked child shares its parent's sockets: it takes connections of its own.
        lane = _LANES[pool] = _Lane(pool)
    return lane


def _packed(connection: AbstractConnection, commands: Sequence[Sequence[Any]]) -> Any:
    try:
        return b"".join([pack_command(tuple(command)) for command in commands])
    except TypeError:  # a word hiredis does not pack (a memoryview): redis-py's encoder does
        return connection.pack_commands(commands)


async def _exchange(connection: AbstractConnection, packed: Any, count: int) -> list[Any]:
    # Every reply is read, errors too, so the connection goes back to the pool in step; a
    # read that fails (or is cancelled) disconnects it (redis-py's read_response).
    await _send(connection, packed)
    replies: list[Any] = []
    for _ in range(count):
        try:
            replies.append(await connection.read_response())
        except ResponseError as error:
            replies.append(error)
    return replies


def socket_writer(connection: AbstractConnection) -> asyncio.StreamWriter | None:
    """The asyncio stream a connected connection writes its socket through, or None: when it
    is not connected, its socket is closing, or it is a stand-in whose writer only looks like
    one (fakeredis's has a `transport` since 2.41), which must go through its own send.

    `_writer` is redis-py's private attribute (tests/integration/test_script_pipeline.py
    covers a real connection and fakeredis's), hence the type checks rather than a trust in
    its shape."""
    writer = getattr(connection, "_writer", None)
    if not isinstance(writer, asyncio.StreamWriter) or not connection.is_connected:
        return None
    transport = writer.transport
    if not isinstance(transport, asyncio.WriteTransport) or transport.is_closing():
        return None
    return writer


async def _send(connection: AbstractConnection, packed: Any) -> None:
    """Write the packed commands: straight to the socket of a connected connection, waiting
    (under the connection's write timeout) only if the socket's buffer is past its high-water
    mark; an unconnected one goes through redis-py's send, which connects it."""
    writer = socket_writer(connection)
    if writer is None:
        await connection.send_packed_command(packed, check_health=False)
        return
    transport = writer.transport
    if isinstance(packed, list):  # redis-py's packing (`_packed`): a list of chunks
        writer.writelines(packed)
    else:
        writer.write(packed)
    if transport.get_write_buffer_size() <= transport.get_write_buffer_limits()[1]:
        return
    try:
        async with asyncio.timeout(connection.socket_timeout):
            await writer.drain()
    except TimeoutError:
        await connection.disconnect(nowait=True)
        raise RedisTimeoutError("Timeout writing to socket") from None
    except OSError as error:
        await connection.disconnect(nowait=True)
        raise RedisConnectionError(f"Error while writing to socket: {error!r}") from error
    except BaseException:  # cancelled half-way: what was written is unknown
        await connection.disconnect(nowait=True)
        raise
