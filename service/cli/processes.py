"""The processes a Skald service is made of, started and stopped in order.

`backing_redis` gives the Redis to use (the configured one, or an embedded one it starts),
`WorkerPool` runs worker processes and restarts any that dies, `ApiServer` runs uvicorn in the
foreground (`skald serve`) or in a thread (`skald demo`, tests).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import msgspec
import structlog

from service import bootstrap
from service.adapters.embedded_redis import running_url
from service.api import create_app
from service.api.server import SkaldServer, uvicorn_config
from service.shared.settings import ENV_PREFIX, Settings

log = structlog.get_logger("skald.cli")

# The worker process entry point (CORE's); run as `python -m <module>`.
WORKER_MODULE = "workers.main"
DISPATCHER_MODULE = "workers.dispatcher"  # the webhook dispatcher process


class Shutdown(Exception):
    """Raised in the main thread on SIGTERM, so every `with` block cleans up on the way out."""


def raise_shutdown_on_sigterm() -> None:
    """Turn SIGTERM into a `Shutdown` exception (containers stop processes with SIGTERM)."""

    def handler(signum: int, frame: Any) -> None:
        raise Shutdown(signal.Signals(signum).name)

    signal.signal(signal.SIGTERM, handler)


def spawn(
    command: list[str], env: dict[str, str], output: IO[bytes] | None = None
) -> subprocess.Popen[bytes]:
    """Start a child in its own session (Ctrl-C reaches Skald, which stops children in order)."""
    return subprocess.Popen(
        command,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=output,
        stderr=subprocess.STDOUT if output is not None else None,
        start_new_session=True,
    )


def stop_process(process: subprocess.Popen[bytes], timeout_s: float = 10.0) -> None:
    """SIGTERM (RQ finishes its current job), then SIGKILL if it outstays `timeout_s`."""
    if process.poll() is None:
        process.terminate()
    wait_or_kill(process, timeout_s)


def wait_or_kill(process: subprocess.Popen[bytes], timeout_s: float = 10.0) -> None:
    """Wait for a process told to stop; SIGKILL it after `timeout_s`.

    Never a second SIGTERM: RQ takes that as "stop now" and abandons the job it runs.
    """
    try:
        process.wait(timeout_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def settings_env(settings: Settings) -> dict[str, str]:
    """The environment that gives a child process these settings (SKALD_* variables)."""
    env = dict(os.environ)
    for field in msgspec.structs.fields(settings):
        value = getattr(settings, field.name)
        if value != field.default:
            env[ENV_PREFIX + field.name.upper()] = str(value)
    return env


@contextlib.contextmanager
def backing_redis(settings: Settings, share_running: bool = False) -> Iterator[Settings]:
    """The settings with a Redis URL: the configured Redis, or an embedded one for the block.

    With `share_running`, an embedded Redis that another Skald already runs over the same
    data directory is used rather than refused (the API and workers are stateless).
    """
    if settings.redis_url:
        yield settings
        return
    if share_running and (url := running_url(settings.data_dir)) is not None:
        yield settings.with_redis_url(url)
        return
    with bootstrap.embedded_redis(settings) as embedded:
        yield settings.with_redis_url(embedded.url)


class WorkerPool:
    """`count` worker processes, each restarted if it exits while the pool runs.

    Their output goes to the terminal, or with `log_file` is appended to that file.
    """

    def __init__(
        self,
        settings: Settings,
        count: int,
        log_file: Path | None = None,
        log_level: str = "INFO",
        module: str = WORKER_MODULE,
    ) -> None:
        self.module = module  # what each process runs: workers, or webhook dispatchers
        self.env = settings_env(settings)
        self.count = count
        self.log_level = log_level
        self.log_file = log_file
        self._output: IO[bytes] | None = None
        self.processes: list[subprocess.Popen[bytes]] = []
        self._stopping = threading.Event()
        self._monitor = threading.Thread(target=self._restart_dead, daemon=True)

    def start(self) -> None:
        """Start the workers and the thread that replaces dead ones."""
        if self.log_file is not None:
            self.log_file.parent.mkdir(parents=True, exist_ok=True)
            self._output = self.log_file.open("ab")
        self.processes = [self._spawn() for _ in range(self.count)]
        log.info("workers.started", count=self.count, pids=[p.pid for p in self.processes])
        self._monitor.start()

    def stop(self) -> None:
        """Stop every worker (each finishes the job it is running)."""
        self._stopping.set()
        if self._monitor.is_alive():
            self._monitor.join()  # so no replacement starts behind our back
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            wait_or_kill(process)
        if self._output is not None:
            self._output.close()
        log.info("workers.stopped", count=len(self.processes))

    def __enter__(self) -> WorkerPool:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _spawn(self) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", self.module, "--log-level", self.log_level]
        return spawn(command, self.env, self._output)

    def _restart_dead(self) -> None:
        # Children's exits cannot be awaited together portably, so poll once a second.
        while not self._stopping.wait(1.0):
            for index, process in enumerate(self.processes):
                if process.poll() is not None:
                    log.warning("worker.died", pid=process.pid, status=process.returncode)
                    self.processes[index] = self._spawn()


class ApiServer:
    """The HTTP API on uvicorn, in the foreground or in a background thread."""

    def __init__(self, settings: Settings, host: str, port: int) -> None:
        self.server = SkaldServer(uvicorn_config(create_app(settings), settings, host, port))
        self.url = f"http://{host}:{port}"
        self._thread: threading.Thread | None = None

    def run(self) -> None:
        """Serve until SIGINT/SIGTERM (in the main thread)."""
        log.info("api.listening", url=self.url)
        self.server.run()

    def start_in_thread(self, timeout_s: float = 15.0) -> None:
        """Serve from a background thread; returns once the server accepts connections."""
        self._thread = threading.Thread(target=self.server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout_s
        # uvicorn offers a flag, not an event, for "started".
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the API did not start on {self.url}")
            time.sleep(0.01)
        log.info("api.listening", url=self.url)

    def stop(self) -> None:
        """Stop a server started with `start_in_thread`."""
        self.server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
