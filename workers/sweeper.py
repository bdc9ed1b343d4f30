"""The sweeper thread of a worker process: finds inboxes no drain runner will reach."""

from __future__ import annotations

import threading
import time

import structlog

from service.shared.settings import Settings
from workers.runtime import WorkerRuntime

log = structlog.get_logger("skald.sweeper")


class SweeperThread(threading.Thread):
    """Every `sweep_interval_s`, act on passed turn deadlines, cancel games that waited for
    their players too long, and wake games with waiting commands that no runner holds."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(name="skald-sweeper", daemon=True)
        self.settings = settings
        self._stop_requested = threading.Event()

    def run(self) -> None:
        """Sweep until stopped; a failed sweep (Redis down) is logged and retried next time."""
        runtime = WorkerRuntime(self.settings)  # its own loop and clients: a thread of its own
        next_catch_up = time.monotonic()
        try:
            while not self._stop_requested.wait(self.settings.sweep_interval_s):
                if self.settings.ratings_catch_up_s >= 0 and time.monotonic() >= next_catch_up:
                    next_catch_up = time.monotonic() + self.settings.ratings_catch_up_s
                    self._catch_up_ratings(runtime)
                try:
                    fired = runtime.fire_deadlines()
                    if fired.fired:
                        log.info("deadlines_fired", **vars(fired))
                except Exception as exc:
                    log.warning("deadlines_failed", error=repr(exc))
                try:
                    expired = runtime.expire_open_rooms()
                    if expired:
                        log.info("open_games_expired", game_ids=expired)
                except Exception as exc:
                    log.warning("open_games_expiry_failed", error=repr(exc))
                try:
                    report = runtime.sweep()
                except Exception as exc:
                    log.warning("sweep_failed", error=repr(exc))
                    continue
                if report.runners_started:
                    log.info("sweep_done", **vars(report))
        finally:
            runtime.close()

    @staticmethod
    def _catch_up_ratings(runtime: WorkerRuntime) -> None:
        """Log finished games no worker logged; a failure is logged and tried next time."""
        try:
            report = runtime.catch_up_ratings()
        except Exception as exc:
            log.warning("ratings_catch_up_failed", error=repr(exc))
            return
        if report.logged or report.failed:
            log.info("ratings_caught_up", logged=report.logged, failed=report.failed)

    def stop(self) -> None:
        """Ask the thread to stop after the current sweep."""
        self._stop_requested.set()
