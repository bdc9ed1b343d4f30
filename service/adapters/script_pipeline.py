"""Script calls and plain commands in one pipeline round trip, by EVALSHA.

redis-py's pipelines check that every registered script they hold is loaded (SCRIPT EXISTS)
before sending them: a second round trip each time. Here each script goes as a plain EVALSHA;
a call refused because Redis lost its scripts (a restart, a flush) did not run, and is run
again once its script is loaded (as `adapters/store/scripts.py` does for the event store's).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from redis.asyncio import Redis
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError


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


def script_step(script: Any, keys: Sequence[Any], args: Sequence[Any]) -> Step:
    """A script call."""
    return Step(script, keys, args)


def command_step(*words: Any) -> Step:
    """A plain command."""
    return Step(None, (), words)


async def run_steps(redis: Redis, steps: Sequence[Step]) -> list[Any]:
    """Run the steps in one round trip (a pipeline, not a transaction: each script is atomic
    by itself), in order; their replies. A script refused for want of loading is loaded and
    run again, after the others; any other error reply is raised."""
    if not steps:
        return []
    replies = await _pipelined(redis, steps)
    lost = [n for n, reply in enumerate(replies) if isinstance(reply, NoScriptError)]
    if lost:
        scripts = {id(steps[n].script): steps[n].script for n in lost}
        for script in scripts.values():
            assert script is not None
            await redis.script_load(script.script)
        again = await _pipelined(redis, [steps[n] for n in lost])
        for n, reply in zip(lost, again, strict=True):
            replies[n] = reply
    for reply in replies:
        if isinstance(reply, Exception):
            raise reply
    return replies


async def _pipelined(redis: Redis, steps: Sequence[Step]) -> list[Any]:
    async with redis.pipeline(transaction=False) as pipe:
        for step in steps:
            if step.script is None:
                pipe.execute_command(*step.args)
            else:  # a command, not `pipe.evalsha`: routed by its keys on a cluster too
                keys = step.keys
                pipe.execute_command("EVALSHA", step.script.sha, len(keys), *keys, *step.args)
        replies: list[Any] = await pipe.execute(raise_on_error=False)
    return replies
