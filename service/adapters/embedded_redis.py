"""A Redis server that Skald starts and stops itself when no Redis URL is configured.

Its data lives under the data directory (`<data_dir>/redis/`) with the append-only file on and
`appendfsync always`, the same durability as deploy/redis.conf: a command acknowledged by the
API is on disk. A lock file keeps two Skald processes from running two servers over the same
files, and names the one that holds them.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType

import redis
import structlog

log = structlog.get_logger("skald.embedded_redis")

# The settings deploy/redis.conf ships with that matter for durability and safety; the
# embedded server gets the same ones on its command line.
DURABILITY_ARGS = (
    "--appendonly", "yes",
    "--appendfsync", "always",
    "--save", "",
    "--protected-mode", "yes",
    "--maxmemory-policy", "noeviction",
)  # fmt: skip


class EmbeddedRedisError(RuntimeError):
    """The embedded Redis could not be started (binary missing, data directory busy, ...)."""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def running_url(data_dir: str | os.PathLike[str]) -> str | None:
    """The URL of the embedded Redis another Skald process runs over `data_dir`, if any."""
    redis_dir = Path(data_dir).resolve() / "redis"
    try:
        descriptor = os.open(redis_dir / "redis.lock", os.O_RDWR)
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        with contextlib.suppress(FileNotFoundError):
            return (redis_dir / "redis.url").read_text().strip() or None
        return None
    finally:
        os.close(descriptor)  # releases the lock if this call took it
    return None


class EmbeddedRedis:
    """A private `redis-server` on 127.0.0.1 with its data in `data_dir/redis`.

    Use as a context manager (or call start/stop): `url` is set once the server answers PING.
    """

    def __init__(
        self,
        data_dir: str | os.PathLike[str],
        binary: str = "redis-server",
        host: str = "127.0.0.1",
    ) -> None:
        self.data_dir = Path(data_dir).resolve() / "redis"
        self.binary = binary
        self.host = host
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._lock_file: int | None = None

    @property
    def url(self) -> str:
        """The server's redis:// URL (database 0)."""
        if self._process is None:
            raise EmbeddedRedisError("the embedded Redis is not running")
        return f"redis://{self.host}:{self.port}/0"

    def start(self, timeout_s: float = 10.0) -> str:
        """Start the server, wait until it answers, and return its URL."""
        executable = shutil.which(self.binary)
        if executable is None:
            raise EmbeddedRedisError(
                f"{self.binary!r} is not on the PATH: install Redis (e.g. `apt install "
                "redis-server`) or set SKALD_REDIS_URL to a Redis you run yourself"
            )
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._take_lock()
        try:
            self.port = free_port(self.host)
            command = [
                executable,
                "--bind", self.host,
                "--port", str(self.port),
                "--dir", str(self.data_dir),
                "--logfile", str(self.data_dir / "redis.log"),
                *DURABILITY_ARGS,
            ]  # fmt: skip
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                # The server inherits the lock: should Skald die without stopping it, the
                # data directory stays locked while that orphan still writes to it.
                pass_fds=(self._lock_file,) if self._lock_file is not None else (),
                # Its own process group: Ctrl-C in the terminal reaches Skald, which then
                # shuts Redis down in order instead of both racing.
                start_new_session=True,
            )
            self._wait_until_ready(timeout_s)
        except BaseException:
            self.stop()
            raise
        (self.data_dir / "redis.url").write_text(self.url + "\n")
        log.info("embedded_redis.started", url=self.url, data_dir=str(self.data_dir))
        return self.url

    def stop(self, timeout_s: float = 10.0) -> None:
        """Shut the server down (it flushes its append-only file first) and release the lock."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            # SIGTERM makes Redis fsync the AOF and exit cleanly.
            process.terminate()
            try:
                process.wait(timeout_s)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log.info("embedded_redis.stopped", data_dir=str(self.data_dir))
        with contextlib.suppress(FileNotFoundError):
            (self.data_dir / "redis.url").unlink()
        if self._lock_file is not None:
            os.close(self._lock_file)  # closing releases the flock
            self._lock_file = None

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def _take_lock(self) -> None:
        lock_path = self.data_dir / "redis.lock"
        descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(descriptor)
            try:
                holder = (self.data_dir / "redis.url").read_text().strip()
            except FileNotFoundError:
                holder = "starting"
            raise EmbeddedRedisError(
                f"the data directory {self.data_dir.parent} is in use by another Skald process "
                f"(its Redis: {holder}); stop it, point SKALD_REDIS_URL at that Redis, or use "
                "another SKALD_DATA_DIR"
            ) from None
        self._lock_file = descriptor

    def _wait_until_ready(self, timeout_s: float) -> None:
        assert self._process is not None
        client = redis.Redis(host=self.host, port=self.port, socket_connect_timeout=0.5)
        deadline = time.monotonic() + timeout_s
        delay = 0.005
        try:
            while True:
                if self._process.poll() is not None:
                    raise EmbeddedRedisError(
                        f"redis-server exited with status {self._process.returncode}; see "
                        f"{self.data_dir / 'redis.log'}"
                    )
                try:
                    # While Redis loads a large AOF it answers LOADING errors; wait for PONG.
                    if client.ping():
                        return
                except (redis.ConnectionError, redis.BusyLoadingError):
                    pass
                if time.monotonic() > deadline:
                    raise EmbeddedRedisError(
                        f"redis-server did not answer within {timeout_s:.0f}s; see "
                        f"{self.data_dir / 'redis.log'}"
                    )
                # A child's readiness cannot be awaited as an event, so poll with backoff.
                time.sleep(delay)
                delay = min(delay * 2, 0.1)
        finally:
            client.close()
