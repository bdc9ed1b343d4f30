"""Smoke test of `skald bench`: the command runs end to end and reports every figure.

It runs on a load far too small for its figures to mean anything, so nothing about speed is
asserted: the suite itself (tests/bench) is where speed is measured.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.bench.suite import TARGETS

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
CHECKOUT = Path(__file__).resolve().parents[2]
FIGURES = {
    "e2e_per_s",
    "echo_per_s",
    "naive_per_s",
    "latency_light",
    "latency_half_max",
    "latency_half_max_windows",
    "load_curve",
    "legal_commands_late_ms",
    "random_games_per_s",
    "replay_events_per_s",
    "decode_events_per_s",
    "rebuild_events_per_s",
    "bytes_per_game",
    "archived_replay_vs_redis",
    "redis_bytes_per_finished_game",
    "stream_bytes_per_move",
    "view_bytes_late",
    "timer_fired_per_s",
    "greedy_move_late_looot_ms",
    "e2e_timed_per_s",
    "machine",
    *TARGETS,
}


@pytest.mark.redis
def test_bench_prints_every_figure_as_one_json_object(tmp_path: Path) -> None:
    # Given a real Redis, when the bench runs on a tiny load with --json and a chart path
    chart = tmp_path / "load.png"
    env = {**os.environ, "SKALD_REDIS_URL": REDIS_URL}
    done = subprocess.run(
        [sys.executable, "-m", "tests.bench", "--tiny", "--json", "--chart", str(chart)],
        cwd=CHECKOUT,
        env=env,
        capture_output=True,
        # The suite serves a Skald and drives Chromium for the web figures: allow for both.
        timeout=300,
        check=False,
    )
    # Then it succeeds, prints one JSON object carrying every figure and target, and the PNG
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    figures = json.loads(done.stdout)
    assert figures.keys() >= FIGURES
    # The web client's figures need its build (`make web`); without it the bench says why.
    unbuilt = {"web_assets_vs_budget"} if "web_assets_vs_budget" not in figures else set()
    assert unbuilt == set() or "web_skipped" in figures
    assert set(figures["targets"]) == set(TARGETS) - unbuilt
    assert "web_first_render_ms" in figures or "web_skipped" in figures
    assert all(figures[key] > 0 for key in ("e2e_per_s", "echo_per_s", "naive_per_s"))
    assert figures["latency_half_max"] in figures["latency_half_max_windows"]
    assert chart.read_bytes().startswith(b"\x89PNG")


def _marked(marker: str, running: str = "") -> list[int]:
    """The live processes whose environment carries `marker` (and whose command line holds
    `running`)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            marked = marker.encode() in (entry / "environ").read_bytes()
            if marked and running.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:  # gone meanwhile, or not ours
            continue
    return found


def _answering(pid: int) -> bool:
    """Whether the `serve --port N` process `pid` accepts connections on its port."""
    try:
        words = (Path("/proc") / str(pid) / "cmdline").read_bytes().split(b"\0")
        port = int(words[words.index(b"--port") + 1])
    except (OSError, ValueError, IndexError):
        return False
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
    except OSError:
        return False
    return True


@pytest.mark.redis
@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc")
@pytest.mark.parametrize(
    "command", [["-m", "tests.bench"], ["-m", "service.cli", "bench"]], ids=["suite", "skald"]
)
def test_a_bench_stopped_with_sigterm_stops_what_it_started(command: list[str]) -> None:
    # Given a bench that has started serving a Skald (its children inherit a marker)
    marker = f"SKALD_BENCH_TEST_MARKER={uuid.uuid4().hex}"
    name, value = marker.split("=", 1)
    env = {**os.environ, "SKALD_REDIS_URL": REDIS_URL, name: value}
    bench = subprocess.Popen(
        [sys.executable, *command, "--tiny", "--json"],
        cwd=CHECKOUT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        # (served and answering: a child still writing its start-up lines would die with the
        # bench's end of its pipe, fix or no fix)
        while not any(map(_answering, _marked(marker, "serve"))) and bench.poll() is None:
            assert time.monotonic() < deadline, "the bench served nothing in 2 minutes"
            time.sleep(0.2)
        assert bench.poll() is None, "the bench ended before it served anything"
        # When it is sent SIGTERM
        bench.send_signal(signal.SIGTERM)
        bench.wait(timeout=60)
        # Then nothing it started is left running
        deadline = time.monotonic() + 30
        while _marked(marker) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _marked(marker) == [], "processes the bench started outlived it"
    finally:
        if bench.poll() is None:
            bench.kill()
        for pid in _marked(marker):
            os.kill(pid, signal.SIGKILL)
