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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hiredis import pack_command
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import AbstractConnection
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError, ResponseError


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


async def run_steps(
    redis: Redis, steps: Sequence[Step], keep_errors: bool = False
) -> list[Any]:
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
        for script in scripts.values():
            assert script is not None
            await redis.script_load(script.script)
        again = await pipelined(redis, [steps[n].words() for n in lost])
        for n, reply in zip(lost, again, strict=True):
            replies[n] = reply
    for step, reply in zip(steps, replies, strict=True):
        if isinstance(reply, Exception) and not (keep_errors and step.script is not None):
            raise reply
    return replies


async def pipelined(redis: Redis, commands: Sequence[Sequence[Any]]) -> list[Any]:
    """Send `commands` in one round trip; their replies in order, an error reply (a
    `ResponseError`) in its command's place. A broken connection raises."""
    if isinstance(redis, RedisCluster):
        async with redis.pipeline(transaction=False) as pipe:
            for command in commands:
                pipe.execute_command(*command)
            replies: list[Any] = await pipe.execute(raise_on_error=False)
        return replies
    pool = redis.connection_pool
    connection = await pool.get_connection()
    try:
        packed = _packed(connection, commands)
        return await connection.retry.call_with_retry(
            lambda: _exchange(connection, packed, len(commands)),
            lambda error: connection.disconnect(),
        )
    finally:
        await pool.release(connection)


def _packed(connection: AbstractConnection, commands: Sequence[Sequence[Any]]) -> Any:
    try:
        return b"".join([pack_command(tuple(command)) for command in commands])
    except TypeError:  # a word hiredis does not pack (a memoryview): redis-py's encoder does
        return connection.pack_commands(commands)


async def _exchange(connection: AbstractConnection, packed: Any, count: int) -> list[Any]:
    # Every reply is read, errors too, so the connection goes back to the pool in step; a
    # read that fails (or is cancelled) disconnects it (redis-py's read_response).
    await connection.send_packed_command(packed, check_health=False)
    replies: list[Any] = []
    for _ in range(count):
        try:
            replies.append(await connection.read_response())
        except ResponseError as error:
            replies.append(error)
    return replies
