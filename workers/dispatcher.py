"""The webhook dispatcher process: delivers players' notifications to the registered
endpoints (service.core.notifying.dispatch) until SIGTERM or SIGINT.

`python -m workers.dispatcher` (what `skald dispatcher` runs, and `skald serve` starts beside
the workers) reads its settings from SKALD_* variables. Several may run: each takes its own
share of the work; one killed leaves its deliveries to be taken again once their attempt's
time is up.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket
import sys
import time

import structlog

from service import bootstrap
from service.shared.settings import Settings

log = structlog.get_logger("skald.webhooks")
IDLE_BLOCK_MS = 200  # how long an idle dispatcher waits on the inbox before looking again
# A busy dispatcher steps at most this often: during a flood the inbox has a few entries
# each time it is read, and every step costs a few round trips whatever it carries, so the
# steps are spaced to take in more at once. Deliveries wait their linger anyway (a second by
# default); this adds at most as much as an idle dispatcher's wait on the inbox.
MIN_STEP_S = 0.1
# The dispatcher yields the CPU to the workers (moves first, notifications after): its
# deliveries may wait a little on a busy machine, the players' moves do not.
NICENESS = 5


async def serve(settings: Settings, stop: asyncio.Event) -> None:
    """Dispatch until `stop` is set; Redis outages are waited out."""
    consumer = f"{socket.gethostname()}-{os.getpid()}"
    async with bootstrap.dispatcher_graph(settings, consumer) as dispatcher:
        ready = False
        while not stop.is_set():
            try:
                if not ready:
                    await dispatcher.store.ensure_group()
                    ready = True
                began = time.monotonic()
                report = await dispatcher.step(block_ms=IDLE_BLOCK_MS)
                if report.delivered or report.failed:
                    log.info("webhooks_step", **vars(report))
                if report.taken_in or report.delivered or report.failed:
                    rest = MIN_STEP_S - (time.monotonic() - began)
                    if rest > 0:
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(stop.wait(), rest)
            except Exception as exc:  # Redis away: wait, then go on
                log.warning("webhooks_step_failed", error=repr(exc))
                ready = False
                await asyncio.sleep(0.5)


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m workers.dispatcher`."""
    parser = argparse.ArgumentParser(prog="workers.dispatcher", description=__doc__.split("\n")[0])
    parser.add_argument("--log-level", default="INFO")
    parser.parse_args(argv)
    settings = Settings.from_env()
    if not settings.redis_url:
        print("workers.dispatcher: set SKALD_REDIS_URL", file=sys.stderr)
        return 2

    with contextlib.suppress(OSError):  # not allowed here: run at the usual priority
        os.nice(NICENESS)

    async def run() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        await serve(settings, stop)

    asyncio.run(run())
    return 0


if __name__ == "__main__":
    sys.exit(main())
