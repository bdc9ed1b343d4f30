"""Skald against boardgame.io in the same run: the same workload, measured the same way.

    .venv/bin/python -m tests.bench --peer boardgame.io [--quick]

The workload on both sides: two-seat race games (every move legal), one service process
answering clients (Skald's API, with its workers and a Redis of this run's own; boardgame.io's
one server process) and one load process (this one for Skald, a Node one for boardgame.io).
A move counts when the other seat sees it: on Skald's seat WebSocket (each seat holds one for
its commands and its updates; the ceiling and the light-load p50 are also measured over HTTP,
a POST per move and the other seat on its server-sent event stream), in the other seat's
boardgame.io `Client` over socket.io. Each side gets:
- `ceiling_per_s`: every table moves again as soon as the other seat saw the last move;
- `flood_per_s`: `games` x `moves_per_game`, each table as fast as its side lets it: Skald
  takes the next command once the last was accepted (its outcome frame on the seat's
  WebSocket, `queued`; its inbox orders them), and counts the flood done when every last
  command is applied (the same over HTTP, 202 per POST, in `http.flood_per_s`);
  boardgame.io refuses a move on a stale state, so its seat to move sends once its client
  has the last move;
- `cpu_ms_per_move`: CPU time of the side's processes (from /proc) per move in the ceiling
  run's measured window, per process and in all; the load client's apart;
- the p50 at a light pace (`light_per_s`), and the p99 at half the side's own flood rate in
  `half_max_windows` windows (the median window counts), as in bench_e2e (Skald's HTTP flood:
  over WebSockets it pipelines each table's commands past what paced tables reach).
Skald runs twice, on a Redis persisting as deploy/redis.conf ships it (append-only file,
fsync on every write) and on one without persistence; boardgame.io runs in memory, and with
its FlatFile storage for the flood. Ratios are Skald / boardgame.io (in memory unless named).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

from service.adapters.embedded_redis import free_port
from service.cli.processes import stop_process
from tests.bench import boardgameio
from tests.bench.bench_e2e import latency_row, paced_run, throughput
from tests.bench.cpu import CpuMeter, Group
from tests.bench.live import LiveSkald, live_skald
from tests.bench.load import PacedRun

REDIS_CONF = Path(__file__).resolve().parents[2] / "deploy" / "redis.conf"
REDIS_START_TIMEOUT_S = 15.0
BATCH_SIZE = 64  # as bench_e2e serves Skald
# Moves each table is given for the ceiling run, per expected move per second of the table.
CEILING_HEADROOM = 4.0
PEERS = (boardgameio.NAME,)


@dataclass(frozen=True)
class PeerLoad:
    """How hard the comparison pushes each side."""

    games: int  # tables in the flood and the ceiling run
    moves_per_game: int  # in the flood
    latency_games: int  # tables paced at half the maximum
    point_s: float  # seconds measured per paced run
    warmup_s: float  # paced before a run is measured
    half_max_windows: int
    light_games: int = 10
    light_per_s: float = 20.0
    workers: int = 2


FULL_PEER = PeerLoad(300, 25, 100, point_s=8.0, warmup_s=2.0, half_max_windows=3)
QUICK_PEER = PeerLoad(100, 12, 50, point_s=3.0, warmup_s=1.0, half_max_windows=3)
TINY_PEER = PeerLoad(4, 3, 2, 0.5, 0.2, 1, light_games=2, light_per_s=5.0, workers=1)


# The shipped file's directives that name the container's network and folder: this run's own.
LOCAL_DIRECTIVES = ("bind", "port", "dir", "protected-mode")


def redis_config(data: Path, port: int, persistent: bool) -> str:
    """deploy/redis.conf for a server of this run's own: on 127.0.0.1 and `port`, its data
    in `data`, and with the append-only file off unless `persistent`."""
    kept = [
        line
        for line in REDIS_CONF.read_text().splitlines()
        if line.split(maxsplit=1)[:1] not in ([name] for name in LOCAL_DIRECTIVES)
    ]
    kept += ["bind 127.0.0.1", "protected-mode yes", f"port {port}", f"dir {data}"]
    if not persistent:
        kept.append("appendonly no")  # the shipped file already saves no snapshots
    return "\n".join(kept) + "\n"


@contextlib.contextmanager
def own_redis(persistent: bool) -> Iterator[tuple[str, int]]:
    """A redis-server of this run's own, configured as deploy/redis.conf ships it (see
    `redis_config`); yields its URL and process id."""
    with tempfile.TemporaryDirectory(prefix="bench-redis-") as data:
        port = free_port()
        config = Path(data) / "redis.conf"
        config.write_text(redis_config(Path(data), port, persistent))
        process = subprocess.Popen(
            ["redis-server", str(config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            _wait_for_redis(port, process)
            yield f"redis://127.0.0.1:{port}/0", process.pid
        finally:
            stop_process(process)


def _wait_for_redis(port: int, process: subprocess.Popen[bytes]) -> None:
    client = redis.Redis(port=port, socket_connect_timeout=0.5)
    deadline = time.monotonic() + REDIS_START_TIMEOUT_S
    try:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"redis-server exited with status {process.returncode}")
            with contextlib.suppress(redis.ConnectionError, redis.BusyLoadingError):
                if client.ping():
                    return
            time.sleep(0.05)  # a child's readiness can only be polled
    finally:
        client.close()
    raise RuntimeError(f"redis-server did not answer on port {port}")


def _per_move_ms(cpu_s: dict[str, float], moves: int) -> dict[str, float]:
    """CPU milliseconds per move of each process, and of all but the load client."""
    per_move = {name: round(seconds * 1000 / max(moves, 1), 3) for name, seconds in cpu_s.items()}
    service = sum(seconds for name, seconds in cpu_s.items() if name != "load")
    per_move["service"] = round(service * 1000 / max(moves, 1), 3)
    return per_move


def _paced_rows(runs: list[PacedRun]) -> tuple[dict[str, float], list[dict[str, float]]]:
    rows = [latency_row(run) for run in runs]
    return sorted(rows, key=lambda row: row["p99_ms"])[len(rows) // 2], rows


def _side(
    flood_per_s: float,
    flood_cpu: dict[str, float],
    ceiling: PacedRun,
    ceiling_cpu: dict[str, float],
    light: PacedRun,
    halves: list[PacedRun],
    moves: int,
) -> dict[str, Any]:
    half, windows = _paced_rows(halves)
    return {
        "flood_per_s": round(flood_per_s, 1),
        "flood_cpu_ms_per_move": _per_move_ms(flood_cpu, moves),
        "ceiling_per_s": round(ceiling.achieved_per_s, 1),
        "cpu_ms_per_move": _per_move_ms(ceiling_cpu, len(ceiling.latencies)),
        "p50_light_ms": latency_row(light)["p50_ms"],
        "latency_light": latency_row(light),
        "p99_half_max_ms": half["p99_ms"],
        "latency_half_max": half,
        "latency_half_max_windows": windows,
    }


async def skald_side(load: PeerLoad, persistent: bool) -> dict[str, Any]:
    """Skald's figures, served on a Redis of this run's own."""
    with contextlib.ExitStack() as stack:
        redis_url, redis_pid = stack.enter_context(own_redis(persistent))
        live = stack.enter_context(live_skald(redis_url, load.workers, batch_size=BATCH_SIZE))
        return await _measure_skald(live, redis_pid, load)


async def _measure_skald(live: LiveSkald, redis_pid: int, load: PeerLoad) -> dict[str, Any]:
    meter = CpuMeter(
        [
            Group("api", live.pid, own_only=True),
            Group("workers", live.pid, without=("api",)),
            Group("redis", redis_pid),
            Group("load", os.getpid(), own_only=True),
        ]
    )
    # The flood over the seats' WebSockets (its figures), and over HTTP (a POST per move).
    flood_http = await throughput(
        live.url, load.games, load.moves_per_game, echo=False, seed=20_000_000, meter=meter
    )
    flood_http_cpu = meter.used
    flood = await throughput(
        live.url,
        load.games,
        load.moves_per_game,
        echo=False,
        seed=20_500_000,
        meter=meter,
        over_socket=True,
    )
    flood_cpu = meter.used
    per_game = int(CEILING_HEADROOM * flood / load.games * (load.warmup_s + load.point_s)) + 10

    async def ceiling_run(seed: int, over_socket: bool) -> PacedRun:
        return await paced_run(
            live.url,
            load.games,
            0,
            seed,
            warmup_s=load.warmup_s,
            point_s=load.point_s,
            commands_per_game=per_game,
            meter=meter,
            over_socket=over_socket,
        )

    async def paced_at(games: int, offered: float, seed: int, over_socket: bool = True) -> PacedRun:
        return await paced_run(
            live.url,
            games,
            offered,
            seed,
            warmup_s=load.warmup_s,
            point_s=load.point_s,
            over_socket=over_socket,
        )

    # The paced figures over each seat's WebSocket (the fastest channel), and the ceiling and
    # light-load p50 over HTTP (a POST per move, the other seat on its event stream) beside them.
    ceiling_http = await ceiling_run(21_500_000, over_socket=False)
    ceiling_http_cpu = meter.used
    ceiling = await ceiling_run(21_000_000, over_socket=True)
    ceiling_cpu = meter.used
    light_http = await paced_at(load.light_games, load.light_per_s, 22_500_000, False)
    light = await paced_at(load.light_games, load.light_per_s, 22_000_000)
    # Half of the HTTP flood's rate, as before the flood went over WebSockets: that flood
    # pipelines each table's commands (its inbox orders them) well past what paced tables,
    # one move in flight each, can reach, so half of it would measure a queue, not a latency.
    halves = [
        await paced_at(load.latency_games, flood_http / 2, seed)
        for seed in range(23_000_000, 23_000_000 + 100_000 * load.half_max_windows, 100_000)
    ]
    moves = load.games * load.moves_per_game
    side = _side(flood, flood_cpu, ceiling, ceiling_cpu, light, halves, moves)
    side["http"] = {
        "flood_per_s": round(flood_http, 1),
        "flood_cpu_ms_per_move": _per_move_ms(flood_http_cpu, moves),
        "ceiling_per_s": round(ceiling_http.achieved_per_s, 1),
        "cpu_ms_per_move": _per_move_ms(ceiling_http_cpu, len(ceiling_http.latencies)),
        "p50_light_ms": latency_row(light_http)["p50_ms"],
        "latency_light": latency_row(light_http),
    }
    return side


def _peer_paced(run: boardgameio.PeerRun) -> PacedRun:
    result = run.result
    return PacedRun(result["offered_per_s"], result["achieved_per_s"], result["latencies"])


def peer_side(load: PeerLoad) -> dict[str, Any]:
    """boardgame.io's figures, its state in memory."""
    timing = {"seconds": load.point_s, "warmup": load.warmup_s}
    with boardgameio.peer_server("memory") as server:
        flood = boardgameio.run_load(server, "flood", load.games, moves=load.moves_per_game)
        flood_per_s = flood.result["per_s"]
        ceiling = boardgameio.run_load(server, "paced", load.games, rate=0, **timing)
        light = boardgameio.run_load(
            server, "paced", load.light_games, rate=load.light_per_s, **timing
        )
        halves = [
            boardgameio.run_load(
                server, "paced", load.latency_games, rate=flood_per_s / 2, **timing
            )
            for _ in range(load.half_max_windows)
        ]
    return _side(
        flood_per_s,
        flood.cpu_s,
        _peer_paced(ceiling),
        ceiling.cpu_s,
        _peer_paced(light),
        [_peer_paced(run) for run in halves],
        flood.result["moves"],
    )


def peer_flatfile_flood(load: PeerLoad) -> dict[str, Any]:
    """boardgame.io's flood with its FlatFile storage."""
    with boardgameio.peer_server("flatfile") as server:
        flood = boardgameio.run_load(server, "flood", load.games, moves=load.moves_per_game)
    return {
        "flood_per_s": round(flood.result["per_s"], 1),
        "flood_cpu_ms_per_move": _per_move_ms(flood.cpu_s, flood.result["moves"]),
    }


def _ratio(ours: float, theirs: float) -> float:
    return round(ours / theirs, 3) if theirs else 0.0


def ratios(sides: dict[str, dict[str, Any]]) -> dict[str, float]:
    """Skald / boardgame.io for each compared figure (see the module docstring)."""
    peer, flatfile = sides["boardgameio_memory"], sides["boardgameio_flatfile"]
    figures = {}
    for suffix, skald in (("", sides["skald_aof"]), ("_no_persistence", sides["skald_memory"])):
        figures[f"paced_vs_boardgameio{suffix}"] = _ratio(
            skald["ceiling_per_s"], peer["ceiling_per_s"]
        )
        figures[f"flood_vs_boardgameio{suffix}"] = _ratio(skald["flood_per_s"], peer["flood_per_s"])
        figures[f"cpu_per_move_vs_boardgameio{suffix}"] = _ratio(
            skald["cpu_ms_per_move"]["service"], peer["cpu_ms_per_move"]["service"]
        )
        figures[f"p50_light_vs_boardgameio{suffix}"] = _ratio(
            skald["p50_light_ms"], peer["p50_light_ms"]
        )
        figures[f"p99_half_max_vs_boardgameio{suffix}"] = _ratio(
            skald["p99_half_max_ms"], peer["p99_half_max_ms"]
        )
        http = skald.get("http", {})
        if http:  # the same figures with Skald's client on HTTP and event streams
            figures[f"flood_http_vs_boardgameio{suffix}"] = _ratio(
                http["flood_per_s"], peer["flood_per_s"]
            )
            figures[f"paced_http_vs_boardgameio{suffix}"] = _ratio(
                http["ceiling_per_s"], peer["ceiling_per_s"]
            )
            figures[f"p50_light_http_vs_boardgameio{suffix}"] = _ratio(
                http["p50_light_ms"], peer["p50_light_ms"]
            )
    skald = sides["skald_aof"]
    figures["flood_vs_boardgameio_flatfile"] = _ratio(skald["flood_per_s"], flatfile["flood_per_s"])
    figures["flood_cpu_per_move_vs_boardgameio_flatfile"] = _ratio(
        skald["flood_cpu_ms_per_move"]["service"], flatfile["flood_cpu_ms_per_move"]["service"]
    )
    return figures


async def peer_figures(
    peer: str, load: PeerLoad, progress: Callable[[str], None] = lambda step: None
) -> dict[str, Any]:
    """Both sides and their ratios; only `peer_skipped` (why) where the peer cannot run."""
    if peer not in PEERS:
        raise ValueError(f"unknown peer {peer!r}: one of {', '.join(PEERS)}")
    try:
        progress(f"installing {peer}")
        boardgameio.install()
    except boardgameio.PeerUnavailable as unavailable:
        return {"peer_skipped": str(unavailable)}
    sides: dict[str, dict[str, Any]] = {}
    progress("against boardgame.io: Skald, Redis with its append-only file")
    sides["skald_aof"] = await skald_side(load, persistent=True)
    progress("against boardgame.io: boardgame.io in memory")
    sides["boardgameio_memory"] = peer_side(load)
    progress("against boardgame.io: Skald, Redis without persistence")
    sides["skald_memory"] = await skald_side(load, persistent=False)
    progress("against boardgame.io: boardgame.io with FlatFile")
    sides["boardgameio_flatfile"] = peer_flatfile_flood(load)
    versions = {"node": boardgameio.node_version(), "boardgame.io": boardgameio.version()}
    return {"peer": {"name": peer, "versions": versions, "sides": sides}, **ratios(sides)}
