"""boardgame.io, the peer Skald is measured against: its server and load client as child
processes (the Node harness in `peer/`, installed from npm with `npm ci` on first use).

The server is one Node process (state in memory, or in boardgame.io's FlatFile storage); the
load client is one Node process with two boardgame.io `Client`s per match over socket.io. Each
load run prints "ready" when its clients are synced, "measuring" when the measured window
opens, then one JSON line of results: the CPU time of every process is read at those lines.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from service.adapters.embedded_redis import free_port
from service.cli.processes import stop_process
from tests.bench.cpu import CpuMeter, Group

PEER = Path(__file__).resolve().parent / "peer"
NAME = "boardgame.io"
INSTALL_TIMEOUT_S = 600.0
# The installed tree's own record of what `npm ci` put there.
INSTALLED = PEER / "node_modules" / ".package-lock.json"


class PeerUnavailable(RuntimeError):
    """The peer cannot run here (no node or npm, or its install failed)."""


def missing_tools() -> str | None:
    """Why the peer cannot run on this machine, or None when node and npm are there."""
    absent = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if absent:
        return f"{' and '.join(absent)} not on the PATH: the {NAME} comparison needs Node.js"
    return None


def install() -> None:
    """`npm ci` in the harness folder, unless the lock file's tree is already installed."""
    if (reason := missing_tools()) is not None:
        raise PeerUnavailable(reason)
    lock = PEER / "package-lock.json"
    if INSTALLED.is_file() and INSTALLED.stat().st_mtime >= lock.stat().st_mtime:
        return
    done = subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=PEER,
        capture_output=True,
        timeout=INSTALL_TIMEOUT_S,
        check=False,
    )
    if done.returncode != 0:
        raise PeerUnavailable(f"npm ci in {PEER} failed: {done.stderr.decode()[-1500:]}")


def version() -> str:
    """The installed boardgame.io's version."""
    manifest = PEER / "node_modules" / "boardgame.io" / "package.json"
    return str(json.loads(manifest.read_text())["version"])


def node_version() -> str:
    """The Node.js the harness runs on."""
    done = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True)
    return done.stdout.strip()


@dataclass(frozen=True)
class PeerServer:
    """A running boardgame.io server."""

    url: str
    pid: int
    storage: str


def _node_env() -> dict[str, str]:
    # Production mode: boardgame.io logs nothing per action (as a deployed server runs).
    return {**os.environ, "NODE_ENV": "production"}


def _expect(stream: IO[bytes], wanted: str, process: subprocess.Popen[bytes]) -> str:
    line = stream.readline().decode().strip()
    if not line.startswith(wanted):
        process.kill()
        error = process.stderr.read().decode()[-1500:] if process.stderr else ""
        raise RuntimeError(f"{NAME}: expected {wanted!r}, got {line!r} {error}")
    return line


@contextlib.contextmanager
def peer_server(storage: str = "memory") -> Iterator[PeerServer]:
    """boardgame.io's server with the race game on a free port (`memory` or `flatfile`)."""
    with tempfile.TemporaryDirectory(prefix="bench-bgio-") as data:
        port = free_port()
        command = ["node", "server.js", "--port", str(port), "--storage", storage]
        command += ["--dir", str(Path(data) / "flatfile")]
        process = subprocess.Popen(
            command,
            cwd=PEER,
            env=_node_env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        try:
            assert process.stdout is not None
            _expect(process.stdout, "ready", process)
            yield PeerServer(f"http://127.0.0.1:{port}", process.pid, storage)
        finally:
            stop_process(process, timeout_s=10)
            for pipe in (process.stdout, process.stderr):
                if pipe is not None:
                    pipe.close()


@dataclass(frozen=True)
class PeerRun:
    """One load run's results and the CPU seconds each process used in its measured window."""

    result: dict[str, Any]
    cpu_s: dict[str, float]


def run_load(server: PeerServer, mode: str, matches: int, **options: float) -> PeerRun:
    """One load process against `server`: `flood` (options: moves) or `paced` (rate,
    seconds, warmup; rate 0 for no pace)."""
    command = ["node", "load.js", "--url", server.url, "--mode", mode]
    command += ["--matches", str(matches)]
    for name, value in options.items():
        command += [f"--{name}", str(value)]
    process = subprocess.Popen(
        command,
        cwd=PEER,
        env=_node_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert process.stdin is not None and process.stdout is not None
    meter = CpuMeter([Group("server", server.pid), Group("load", process.pid)])
    try:
        _expect(process.stdout, "ready", process)
        process.stdin.write(b"go\n")
        process.stdin.flush()
        _expect(process.stdout, "measuring", process)
        meter.start()
        line = _expect(process.stdout, "{", process)
        cpu = meter.stop()
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for pipe in (process.stdin, process.stdout, process.stderr):
            if pipe is not None:
                pipe.close()
    return PeerRun(json.loads(line), cpu)
