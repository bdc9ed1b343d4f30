"""Smoke test of `python -m tests.bench --peer boardgame.io`: the comparison runs in the same run
as Skald's own figures and reports every peer figure; where Node.js is absent it is skipped
with the reason. Its load is far too small to mean anything, so nothing about speed is
asserted. Also the pieces it stands on: CPU time per process group, and the Redis of its own.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from tests.bench import boardgameio
from tests.bench.bench_peer import TINY_PEER, own_redis, peer_figures, redis_config
from tests.bench.cpu import CpuMeter, Group

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
CHECKOUT = Path(__file__).resolve().parents[2]
RATIOS = {
    f"{figure}_vs_boardgameio{suffix}"
    for figure in ("paced", "flood", "cpu_per_move", "p50_light", "p99_half_max")
    for suffix in ("", "_no_persistence")
} | {"flood_vs_boardgameio_flatfile", "flood_cpu_per_move_vs_boardgameio_flatfile"}
# Skald's figures over HTTP (its bench client plays over WebSockets otherwise).
HTTP_RATIOS = {
    f"{figure}_http_vs_boardgameio{suffix}"
    for figure in ("paced", "p50_light", "flood")
    for suffix in ("", "_no_persistence")
}
SIDE_FIGURES = {
    "flood_per_s",
    "flood_cpu_ms_per_move",
    "ceiling_per_s",
    "cpu_ms_per_move",
    "p50_light_ms",
    "latency_light",
    "p99_half_max_ms",
    "latency_half_max",
    "latency_half_max_windows",
}
PROCESSES = {
    "skald_aof": {"api", "workers", "redis", "load", "service"},
    "skald_memory": {"api", "workers", "redis", "load", "service"},
    "boardgameio_memory": {"server", "load", "service"},
}
NO_NODE = boardgameio.missing_tools()


@pytest.mark.redis
@pytest.mark.skipif(NO_NODE is not None, reason=f"the peer comparison cannot run: {NO_NODE}")
def test_bench_with_the_peer_prints_every_peer_figure() -> None:
    # Given Node.js and a real Redis, when the bench runs on a tiny load against boardgame.io
    env = {**os.environ, "SKALD_REDIS_URL": REDIS_URL}
    done = subprocess.run(
        [sys.executable, "-m", "tests.bench", "--tiny", "--json", "--peer", "boardgame.io"],
        cwd=CHECKOUT,
        env=env,
        capture_output=True,
        timeout=600,  # npm ci on first use, then every side
        check=False,
    )
    # Then Skald's own figures and every comparison figure are in the one JSON object
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    figures = json.loads(done.stdout)
    assert "e2e_per_s" in figures
    assert figures.keys() >= RATIOS | HTTP_RATIOS
    peer = figures["peer"]
    assert peer["versions"]["boardgame.io"] == "0.50.2"
    sides = peer["sides"]
    for name, processes in PROCESSES.items():
        assert sides[name].keys() >= SIDE_FIGURES, name
        assert set(sides[name]["cpu_ms_per_move"]) == processes, name
        # every side really moved: the other seat saw moves in each measured window
        assert sides[name]["latency_light"]["commands"] > 0, name
        assert sides[name]["flood_per_s"] > 0, name
    for name in ("skald_aof", "skald_memory"):
        assert sides[name]["http"]["latency_light"]["commands"] > 0, name
        assert sides[name]["http"]["flood_per_s"] > 0, name
        assert set(sides[name]["http"]["cpu_ms_per_move"]) == PROCESSES[name], name
    assert sides["boardgameio_flatfile"]["flood_per_s"] > 0
    assert set(sides["boardgameio_flatfile"]["flood_cpu_ms_per_move"]) == {
        "server",
        "load",
        "service",
    }


def test_without_node_the_comparison_is_skipped_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a PATH with neither node nor npm
    monkeypatch.setenv("PATH", "")
    # When the comparison is asked for
    figures = asyncio.run(peer_figures("boardgame.io", TINY_PEER))
    # Then it reports only why it was skipped
    assert figures == {
        "peer_skipped": "node and npm not on the PATH: the boardgame.io comparison needs Node.js"
    }


def test_an_unknown_peer_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown peer 'colyseus'"):
        asyncio.run(peer_figures("colyseus", TINY_PEER))


def test_cpu_meter_counts_a_process_tree_and_its_exited_children() -> None:
    # Given a parent that starts a child burning CPU, waits for it and stays alive, and an idle
    # process beside it
    burn = "import time; end = time.process_time() + 0.3\nwhile time.process_time() < end: pass"
    parent_code = (
        "import subprocess, sys; sys.stdin.readline(); "
        f"subprocess.run([sys.executable, '-c', {burn!r}]); print('done', flush=True); "
        "sys.stdin.readline()"
    )
    pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE}
    parent = subprocess.Popen([sys.executable, "-c", parent_code], **pipes)
    idle = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.readline()"], **pipes)
    assert parent.stdin is not None and parent.stdout is not None and idle.stdin is not None
    meter = CpuMeter(
        [
            Group("parent", parent.pid, own_only=True),
            Group("tree", parent.pid),
            Group("children", parent.pid, without=("parent",)),
            Group("idle", idle.pid),
        ]
    )
    try:
        # When the window spans the child's whole life
        meter.start()
        parent.stdin.write(b"go\n")
        parent.stdin.flush()
        assert parent.stdout.readline() == b"done\n"
        used = meter.stop()
    finally:
        for process in (parent, idle):
            process.communicate(b"\n", timeout=10)
    # Then the exited child's CPU counts to the tree, not to the parent's own time
    assert used["tree"] >= 0.25
    assert used["children"] >= 0.25
    assert used["parent"] < 0.25
    assert used["idle"] < 0.1


def test_the_bench_redis_is_the_shipped_config_on_its_own_port(tmp_path: Path) -> None:
    # Given the shipped config turned into one for a server of the bench's own
    persisting = redis_config(tmp_path, 6390, persistent=True)
    volatile = redis_config(tmp_path, 6390, persistent=False)
    # Then it keeps the shipped durability, listens on loopback only, on its own port and folder
    for config in (persisting, volatile):
        lines = config.splitlines()
        assert "appendfsync always" in lines
        assert "bind 127.0.0.1" in lines and "port 6390" in lines
        assert f"dir {tmp_path}" in lines
        assert not any(line.startswith(("bind 0.0.0.0", "dir /data")) for line in lines)
    assert "appendonly no" not in persisting.splitlines()
    assert volatile.splitlines()[-1] == "appendonly no"


@pytest.mark.parametrize("persistent", [True, False])
def test_own_redis_runs_with_or_without_the_append_only_file(persistent: bool) -> None:
    # When the bench starts a Redis of its own
    with own_redis(persistent) as (url, pid):
        client = redis.Redis.from_url(url)
        try:
            # Then it answers, is the process named, and persists as asked
            assert client.set("bench:probe", "1")
            assert client.info("server")["process_id"] == pid
            assert client.config_get("appendonly")["appendonly"] == ("yes" if persistent else "no")
            assert client.config_get("appendfsync")["appendfsync"] == "always"
        finally:
            client.close()
