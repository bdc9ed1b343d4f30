"""History requests off the event loop, and at most so many at once.

Replay, audit and fairness decode and refold a game's whole record: milliseconds of CPU each.
On the event loop that serves moves, sixteen pollers of a long game slowed every request of
the API about twenty times. The gate computes them in worker processes instead (threads would
still hold the interpreter lock the loop needs), reading the record on the loop (that part
waits on Redis). A history request arriving while `max_inflight` are already waiting or
computing is refused at once, with 429 and Retry-After, so history load queues in its own
small pool and never in front of a move.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

from litestar import Request

from service.shared.errors import RateLimited, ServiceError
from service.shared.settings import Settings, load_plugins

T = TypeVar("T")
HISTORY_GATE_STATE_KEY = "history_gate"
HISTORY_BUSY = "history.busy"
# Seconds a refused history request should wait: about what a busy pool needs to drain.
BUSY_RETRY_S = 1.0
HISTORY_NICENESS = 10

Failure = tuple[str, str, int, dict[str, Any]]


def _start_worker(settings: Settings) -> None:
    # History yields the CPU to the API and the workers when they need it (a machine with few
    # cores would otherwise share them evenly between moves and pollers), and imports the games.
    os.nice(HISTORY_NICENESS)
    load_plugins(settings)


def _computed(compute: Callable[..., T], *args: Any) -> tuple[T | None, Failure | None]:
    # Runs in the pool. A refusal travels back as plain values: a ServiceError subclass with
    # its own constructor would not survive the trip between processes.
    try:
        return compute(*args), None
    except ServiceError as exc:
        return None, (exc.code, exc.message, exc.status, exc.details)


class HistoryGate:
    """A small pool for history computations, with a bound on requests in flight."""

    def __init__(self, executor: Executor, max_inflight: int) -> None:
        self.max_inflight = max(1, max_inflight)
        # Where the computations run (exposed for inspection and tests).
        self.executor = executor
        self._inflight = 0  # only ever changed on the event loop's thread

    @classmethod
    def for_settings(cls, settings: Settings) -> HistoryGate:
        """`history_processes` worker processes (each imports the games), or with 0 that many
        `history_threads` threads of this process."""
        executor: Executor
        if settings.history_processes > 0:
            executor = ProcessPoolExecutor(
                settings.history_processes,
                mp_context=multiprocessing.get_context("spawn"),  # the API runs threads
                initializer=_start_worker,
                initargs=(settings,),
            )
        else:
            executor = ThreadPoolExecutor(
                max(1, settings.history_threads), thread_name_prefix="skald-history"
            )
        return cls(executor, settings.history_max_inflight)

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

    async def run(self, compute: Callable[..., T], *args: Any) -> T:
        """`compute(*args)` in the pool (a module-level function: it may cross processes)."""
        loop = asyncio.get_running_loop()
        result, failure = await loop.run_in_executor(self.executor, _computed, compute, *args)
        if failure is not None:
            code, message, status, details = failure
            raise ServiceError(code, message, status=status, details=details)
        return result  # type: ignore[return-value]

    async def close(self) -> None:
        """Stop the pool once its current work is done."""
        self.executor.shutdown(wait=False, cancel_futures=True)


def history_gate(request: Request[Any, Any, Any]) -> HistoryGate:
    """The gate of the app serving `request`."""
    gate: HistoryGate = request.app.state[HISTORY_GATE_STATE_KEY]
    return gate
