"""The worker's side of a move, measured on its own: Redis commands per move and CPU per move.

    .venv/bin/python -m tests.bench.bench_worker_round [--aof] [--json]

One Skald (`skald serve`, its API and 2 workers) on a Redis of this run's own, configured as
deploy/redis.conf ships it (`--aof`: with its append-only file; else without persistence):
- `commands_per_move`: every command Redis ran during a paced window over the seats'
  WebSockets (`light_games` tables at `light_per_s`), counted with MONITOR and divided by the
  moves seen by the other seat; by kind (a script by its name, a plain command by its name and
  its key's kind), those run inside scripts apart;
- the ceiling (each table moves as soon as the other seat saw the last move), its CPU per move
  by process (API, workers, Redis, the load client apart), and the p50 at the light pace.
Run it from two checkouts in turn to compare them (figures move with the machine's load).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import threading
from collections import Counter
from dataclasses import dataclass
from typing import Any

import redis

from service.adapters.store.scripts import script_source
from tests.bench.bench_e2e import latency_row, paced_run
from tests.bench.bench_peer import BATCH_SIZE, _per_move_ms, own_redis
from tests.bench.cpu import CpuMeter, Group
from tests.bench.live import live_skald

SCRIPTS = (
    "submit",
    "commit",
    "open_round",
    "open_next",
    "release_lease",
    "wake",
    "runner_take",
    "runner_end",
    "write_views",
    "mark_pending",
    "forget_pending",
)


@dataclass(frozen=True)
class WorkerLoad:
    """How the measurement pushes Skald."""

    ceiling_games: int = 100
    light_games: int = 20
    light_per_s: float = 100.0
    warmup_s: float = 2.0
    point_s: float = 5.0
    workers: int = 2


def _script_names() -> dict[str, str]:
    import hashlib

    names = {}
    for name in SCRIPTS:
        with contextlib.suppress(FileNotFoundError):
            names[hashlib.sha1(script_source(name).encode()).hexdigest()] = name
    return names


def _key_kind(key: str) -> str:
    """A key without its prefix and game id: `events`, `rq:job`, ..."""
    key = re.sub(r"^bench-[0-9a-f]+:", "", key)
    key = re.sub(r"\{[^}]*\}", "{*}", key)
    key = re.sub(r"[0-9a-f]{8,}|[0-9A-Za-z_-]{20,}", "*", key)
    return key[:40]


class Monitor(CpuMeter):
    """Counts the commands Redis runs while it is on (MONITOR, in a thread); a meter for
    `paced_run`, so it counts the measured window only."""

    def __init__(self, url: str) -> None:
        super().__init__([])
        self.client = redis.Redis.from_url(url)
        self.top: Counter[str] = Counter()
        self.inner: Counter[str] = Counter()
        self.names = _script_names()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with self.client.monitor() as monitor:
            self._monitor = monitor
            for entry in monitor.listen():
                if self._stop.is_set():
                    break
                self._count(entry)

    def _count(self, entry: dict[str, Any]) -> None:
        parts = entry["command"].split(" ")
        name = parts[0].upper()
        if name in ("EVALSHA", "EVAL") and len(parts) > 1:
            kind = f"script {self.names.get(parts[1], parts[1][:8])}"
        elif name in ("PING", "MONITOR"):
            return
        else:
            kind = f"{name} {_key_kind(parts[1])}" if len(parts) > 1 else name
        if entry.get("client_type") == "lua":
            self.inner[kind] += 1
        else:
            self.top[kind] += 1

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> dict[str, float]:
        self._stop.set()
        self.client.ping()  # wakes the listener to see the flag
        self._thread.join(timeout=5)
        return {}


async def measure(aof: bool, load: WorkerLoad) -> dict[str, Any]:
    """The figures (see the module docstring)."""
    with (
        own_redis(aof) as (redis_url, redis_pid),
        live_skald(redis_url, load.workers, batch_size=BATCH_SIZE) as live,
    ):
        meter = CpuMeter(
            [
                Group("api", live.pid, own_only=True),
                Group("workers", live.pid, without=("api",)),
                Group("redis", redis_pid),
                Group("load", os.getpid(), own_only=True),
            ]
        )
        # The light window with MONITOR on (it slows Redis: no timing from it).
        monitor = Monitor(redis_url)
        counted = await paced_run(
            live.url,
            load.light_games,
            load.light_per_s,
            31_000_000,
            warmup_s=1.0,
            point_s=load.point_s,
            meter=monitor,
            over_socket=True,
        )
        per_game = int(4 * 3000 / load.ceiling_games * (load.warmup_s + load.point_s)) + 10
        ceiling = await paced_run(
            live.url,
            load.ceiling_games,
            0,
            32_000_000,
            warmup_s=load.warmup_s,
            point_s=load.point_s,
            commands_per_game=per_game,
            meter=meter,
            over_socket=True,
        )
        ceiling_cpu = meter.used
        light = await paced_run(
            live.url,
            load.light_games,
            load.light_per_s,
            33_000_000,
            warmup_s=load.warmup_s,
            point_s=load.point_s,
            over_socket=True,
        )
    moves = max(1, len(counted.latencies))
    return {
        "aof": aof,
        "load_average": os.getloadavg()[0],
        "ceiling_per_s": round(ceiling.achieved_per_s, 1),
        "cpu_ms_per_move": _per_move_ms(ceiling_cpu, len(ceiling.latencies)),
        "p50_light_ms": latency_row(light)["p50_ms"],
        "commands_per_move": round(sum(monitor.top.values()) / moves, 2),
        "by_kind": {k: round(v / moves, 2) for k, v in monitor.top.most_common()},
        "in_scripts_per_move": round(sum(monitor.inner.values()) / moves, 2),
        "in_scripts": {k: round(v / moves, 2) for k, v in monitor.inner.most_common(20)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--aof", action="store_true", help="Redis with its append-only file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    figures = asyncio.run(measure(args.aof, WorkerLoad()))
    print(json.dumps(figures, indent=None if args.json else 2))


if __name__ == "__main__":
    main()
