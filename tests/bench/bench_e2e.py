"""End-to-end figures over real HTTP: throughput against its two baselines, and latency.

    .venv/bin/python -m tests.bench.bench_e2e [--quick]

In one run, against `skald serve` (1 uvicorn API process + N worker processes) on the real
Redis, with one asyncio aiohttp client in this process:
- `echo_per_s`: the client posting the same payloads to the bench-only echo endpoint;
- `e2e_per_s`: the same payloads as commands, until every one is applied and projected;
- `naive_per_s`: the same again with drain batches of one command (one RQ job per command);
- latency from submit until the other seat's SSE stream shows the outcome, at light load
  and at fractions of the sustained maximum (the load curve of the chart). At half the
  maximum it is measured in `half_max_windows` separate windows and the window with the
  median p99 is the figure (every window is reported): one stall of the shared machine,
  a second in which another tenant has the cores, then does not decide it alone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from dataclasses import dataclass
from typing import Any

from tests.bench.cpu import CpuMeter
from tests.bench.live import live_skald
from tests.bench.load import PacedRun, flood, new_client, open_tables, paced, recorded_commands
from tests.bench.socket_load import socket_flood

REDIS_URL_DEFAULT = "redis://127.0.0.1:6379/0"
NAIVE_BATCH = 1


@dataclass(frozen=True)
class E2ELoad:
    """How hard the e2e run pushes."""

    games: int  # tables played at once in throughput runs
    commands_per_game: int
    latency_games: int  # tables paced in latency runs
    light_per_s: float
    point_s: float  # seconds measured per point of the load curve
    curve: tuple[float, ...]  # offered load as shares of the sustained maximum
    workers: int = 2
    warmup_s: float = 1.0  # paced before each point is measured
    half_max_windows: int = 3  # latency windows at half the maximum; the median p99 counts


QUICK = E2ELoad(100, 12, 50, 20.0, 3.0, (0.25, 0.5, 0.9))
FULL = E2ELoad(300, 25, 100, 20.0, 8.0, (0.1, 0.25, 0.5, 0.75, 0.9, 1.0), warmup_s=2.0)


WARMUP_COMMANDS = 2  # per table, sent and applied before a throughput run is timed


async def throughput(
    url: str,
    games: int,
    commands_per_game: int,
    *,
    echo: bool,
    seed: int,
    meter: CpuMeter | None = None,
    clock: dict[str, Any] | None = None,
    over_socket: bool = False,
) -> float:
    """Sustained commands per second: every table's sequence sent as fast as replies come,
    timed after a first few commands per table (runners started, games loaded); `meter`
    reads the CPU time of the timed part; `clock`: a turn timer on every table. With
    `over_socket` the timed part goes over the seats' WebSockets (socket_load.socket_flood)."""
    async with new_client(url, 2 * games + 8 if over_socket else games) as http:
        tables = await open_tables(http, games, clock)
        count = WARMUP_COMMANDS + commands_per_game
        sequences = [recorded_commands(seed + n, count) for n in range(games)]
        await flood(http, tables, [s[:WARMUP_COMMANDS] for s in sequences], echo=echo)
        timed = [s[WARMUP_COMMANDS:] for s in sequences]
        if over_socket:
            assert not echo, "the echo endpoint is HTTP only"
            start = meter.start if meter is not None else None
            seconds = await socket_flood(http, tables, timed, on_start=start)
        else:
            if meter is not None:
                meter.start()
            seconds = await flood(http, tables, timed, echo=echo)
        if meter is not None:
            meter.stop()
    return games * commands_per_game / seconds


async def _throughput(url: str, load: E2ELoad, *, echo: bool, seed: int) -> float:
    return await throughput(url, load.games, load.commands_per_game, echo=echo, seed=seed)


async def paced_run(
    url: str,
    games: int,
    offered: float,
    seed: int,
    *,
    warmup_s: float,
    point_s: float,
    commands_per_game: int | None = None,
    meter: CpuMeter | None = None,
    over_socket: bool = False,
) -> PacedRun:
    """A paced run (see load.paced) on `games` new tables; `meter` reads the CPU time of the
    measured window. Each table gets enough commands for the offered pace unless told; with
    `over_socket` each seat plays over its WebSocket."""
    async with new_client(url, 2 * games + 8) as http:
        tables = await open_tables(http, games)
        per_game = commands_per_game or int(offered / games * (warmup_s + point_s)) + 4
        sequences = [recorded_commands(seed + n, per_game) for n in range(games)]
        opened = meter.start if meter is not None else None
        run = await paced(
            http, tables, sequences, offered, point_s, warmup_s, opened, over_socket=over_socket
        )
        if meter is not None:
            meter.stop()
        return run


async def _paced(url: str, load: E2ELoad, games: int, offered: float, seed: int) -> PacedRun:
    return await paced_run(url, games, offered, seed, warmup_s=load.warmup_s, point_s=load.point_s)


def latency_row(run: PacedRun) -> dict[str, float]:
    """A paced run's rates and latency percentiles, rounded for the report."""
    return {
        "offered_per_s": round(run.offered_per_s, 1),
        "achieved_per_s": round(run.achieved_per_s, 1),
        "p50_ms": round(run.percentile(0.50), 2),
        "p95_ms": round(run.percentile(0.95), 2),
        "p99_ms": round(run.percentile(0.99), 2),
        "commands": len(run.latencies),
    }


async def e2e_figures(redis_url: str, load: E2ELoad) -> dict[str, Any]:
    """Every e2e figure, in one dict (see the module docstring)."""
    figures: dict[str, Any] = {"e2e_workers": load.workers, "e2e_api_processes": 1}
    with live_skald(redis_url, load.workers, batch_size=64) as live:
        figures["echo_per_s"] = await _throughput(live.url, load, echo=True, seed=1_000_000)
        figures["e2e_per_s"] = await _throughput(live.url, load, echo=False, seed=2_000_000)
        maximum = figures["e2e_per_s"]
        light = await _paced(live.url, load, 10, load.light_per_s, 3_000_000)
        halves = [
            latency_row(await _paced(live.url, load, load.latency_games, maximum / 2, seed))
            for seed in range(4_000_000, 4_000_000 + 100_000 * load.half_max_windows, 100_000)
        ]
        curve = [
            latency_row(await _paced(live.url, load, load.latency_games, share * maximum, seed))
            for share, seed in zip(load.curve, range(5_000_000, 10**9, 100_000), strict=False)
        ]
    with live_skald(redis_url, load.workers, batch_size=NAIVE_BATCH) as naive:
        figures["naive_per_s"] = await _throughput(naive.url, load, echo=False, seed=2_000_000)
    figures["e2e_vs_echo"] = figures["e2e_per_s"] / figures["echo_per_s"]
    figures["e2e_vs_naive"] = figures["e2e_per_s"] / figures["naive_per_s"]
    figures["latency_light"] = latency_row(light)
    figures["latency_half_max"] = sorted(halves, key=lambda row: row["p99_ms"])[len(halves) // 2]
    figures["latency_half_max_windows"] = halves
    figures["p50_light_ms"] = figures["latency_light"]["p50_ms"]
    figures["p99_half_max_ms"] = figures["latency_half_max"]["p99_ms"]
    figures["load_curve"] = curve
    figures["e2e_games"] = load.games
    return figures


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--redis-url", default=REDIS_URL_DEFAULT)
    arguments = parser.parse_args()
    result = asyncio.run(e2e_figures(arguments.redis_url, QUICK if arguments.quick else FULL))
    print(json.dumps(result, indent=2))
