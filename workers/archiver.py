"""The archiver thread of a worker process: finished games leave Redis for the archive."""

from __future__ import annotations

import asyncio
import os
import threading

import structlog

from service import bootstrap
from service.shared.settings import Settings

log = structlog.get_logger("skald.archiver")


class ArchiverThread(threading.Thread):
    """Every `archive_interval_s`, archive the finished games that are due. Of all the
    workers, one runs each interval (a claim in Redis); a failed run (Redis or the archive
    down) is logged, leaves every game where it was and is tried again next time."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(name="skald-archiver", daemon=True)
        self.settings = settings
        self._stop_requested = threading.Event()

    def run(self) -> None:
        """Archive until stopped."""
        if self.settings.archive_after_s < 0:
            return
        with asyncio.Runner() as runner:
            graph = bootstrap.archiving_graph(self.settings)
            owner = f"{os.getpid()}:{threading.get_ident()}"
            interval_ms = int(self.settings.archive_interval_s * 1000)
            try:
                while not self._stop_requested.wait(self.settings.archive_interval_s):
                    try:
                        if not runner.run(graph.claim_run(owner, interval_ms)):
                            continue
                        report = runner.run(graph.rate_and_archive())
                    except Exception as exc:
                        log.warning("archive_run_failed", error=repr(exc))
                        continue
                    if report.archived or report.kept:
                        log.info(
                            "archive_run_done", archived=len(report.archived), kept=report.kept
                        )
            finally:
                runner.run(graph.close())

    def stop(self) -> None:
        """Ask the thread to stop after the current run."""
        self._stop_requested.set()
