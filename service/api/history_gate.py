"""History requests off the event loop, and at most so many at once.

Replay, audit and fairness decode and refold a game's whole record: milliseconds of CPU each.
On the event loop that serves moves, sixteen pollers of a long game slowed every request of
the API about twenty times. The gate computes them in a few worker threads instead (the
record is still read on the loop: that part is waiting on Redis) and refuses, with a 429 and
Retry-After, a history request arriving while `max_inflight` are already waiting or computing,
so history load queues in its own small pool and never in front of a move.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from litestar import Request

from service.errors import RateLimited

T = TypeVar("T")
HISTORY_GATE_STATE_KEY = "history_gate"
HISTORY_BUSY = "history.busy"
# Seconds a refused history request should wait: about what a busy pool needs to drain.
BUSY_RETRY_S = 1.0


class HistoryGate:
    """A small thread pool for history computations, with a bound on requests in flight."""

    def __init__(self, threads: int, max_inflight: int) -> None:
        self.max_inflight = max(1, max_inflight)
        # The gate's threads (what runs the computations; exposed for inspection and tests).
        self.pool = ThreadPoolExecutor(max(1, threads), thread_name_prefix="skald-history")
        self._inflight = 0  # only ever changed on the event loop's thread

    @property
    def inflight(self) -> int:
        """History requests admitted and not yet answered."""
        return self._inflight

    @contextlib.contextmanager
    def admitted(self) -> Iterator[None]:
        """Hold one of the `max_inflight` places for the block; RateLimited (429) if none."""
        if self._inflight >= self.max_inflight:
            raise RateLimited(
                HISTORY_BUSY,
                f"at most {self.max_inflight} history requests are served at once; retry shortly",
                retry_after=BUSY_RETRY_S,
                details={"max_inflight": self.max_inflight},
            )
        self._inflight += 1
        try:
            yield
        finally:
            self._inflight -= 1

    async def run(self, compute: Callable[[], T]) -> T:
        """`compute()` in one of the gate's threads."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, compute)

    async def close(self) -> None:
        """Stop the threads once their current work is done."""
        self.pool.shutdown(wait=False, cancel_futures=True)


def history_gate(request: Request[Any, Any, Any]) -> HistoryGate:
    """The gate of the app serving `request`."""
    gate: HistoryGate = request.app.state[HISTORY_GATE_STATE_KEY]
    return gate
