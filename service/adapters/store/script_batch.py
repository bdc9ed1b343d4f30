"""Script calls made in the same turn of the event loop, sent to Redis in one pipeline.

At a busy API hundreds of seats submit at once, and each submit was its own EVALSHA round
trip through redis-py's pool: a connection taken and given back, a write, a wake-up on the
reply, 90-180 µs of the process's CPU each. `ScriptBatch.run` queues the call instead; the
calls queued by every task that runs in this turn of the loop leave together, in one pipeline,
once the loop has run them all, and each caller gets its own reply or its own error
(`Scripts.run_all` with `keep_errors`: one call's failure is not the others'; a script Redis
lost on a restart is loaded and its calls run again). A call alone in its turn goes the same
way, a turn of the loop later.

A pipeline, not a transaction: each script is atomic by itself, and calls from different
callers are independent. A caller cancelled before its batch leaves is not sent; one cancelled
after may still run (as a single call whose reply was not awaited may).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from redis.commands.core import AsyncScript

from service.adapters.store.scripts import ScriptCall, Scripts


class ScriptBatch:
    """Coalesces script calls of one event-loop turn into one round trip (see the module)."""

    def __init__(self, scripts: Scripts) -> None:
        self._scripts = scripts
        self._queued: list[tuple[ScriptCall, asyncio.Future[Any]]] = []
        self._sending: set[asyncio.Task[None]] = set()

    async def run(self, script: AsyncScript, keys: Sequence[Any], args: Sequence[Any]) -> Any:
        """The script's reply (or its error), sent with the other calls of this turn."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._queued.append(((script, keys, args), future))
        if len(self._queued) == 1:
            # Runs after every callback and task already scheduled for this turn of the loop.
            loop.call_soon(self._send_queued)
        return await future

    def _send_queued(self) -> None:
        queued = [(call, future) for call, future in self._queued if not future.done()]
        self._queued = []
        if not queued:
            return
        task = asyncio.get_running_loop().create_task(self._send(queued))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send(self, queued: list[tuple[ScriptCall, asyncio.Future[Any]]]) -> None:
        replies: list[Any]
        try:
            replies = await self._scripts.run_all([call for call, _ in queued], keep_errors=True)
        except BaseException as error:  # the connection, or the loop stopping: every caller
            for _, future in queued:
                if not future.done():
                    if isinstance(error, asyncio.CancelledError):
                        future.cancel()
                    else:
                        future.set_exception(error)
            if not isinstance(error, Exception):
                raise
            return
        for (_, future), reply in zip(queued, replies, strict=True):
            if future.done():
                continue
            if isinstance(reply, Exception):
                future.set_exception(reply)
            else:
                future.set_result(reply)
