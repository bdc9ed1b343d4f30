"""The notification thread of a worker process: the projector that turns games' new events
into players' notifications (service.core.notifying.projector), off the command path."""

from __future__ import annotations

import threading

import structlog

from service.shared.settings import Settings
from workers.runtime import WorkerRuntime

log = structlog.get_logger("skald.notify")


class NotifierThread(threading.Thread):
    """Project marked games until stopped; idle, look again every `notify_interval_s`."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(name="skald-notifier", daemon=True)
        self.settings = settings
        self._stop_requested = threading.Event()

    def run(self) -> None:
        """Project until stopped; a failed step (Redis down) is logged and retried."""
        runtime = WorkerRuntime(self.settings)  # its own loop and clients: a thread of its own
        try:
            idle = False
            while not self._stop_requested.wait(self.settings.notify_interval_s if idle else 0):
                try:
                    report = runtime.project_notifications()
                except Exception as exc:
                    log.warning("notify_step_failed", error=repr(exc))
                    idle = True
                    continue
                idle = report.games == 0
        finally:
            runtime.close()

    def stop(self) -> None:
        """Ask the thread to stop after the current step."""
        self._stop_requested.set()
