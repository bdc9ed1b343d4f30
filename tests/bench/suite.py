"""The whole benchmark suite `skald bench` runs: every figure in one dict.

Each headline figure is a ratio against a baseline measured in the same run (the machines are
shared and noisy); the absolute rates are printed too, with the machine they came from.
"""

from __future__ import annotations

import asyncio
import logging
import os
import platform
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import structlog
from redis.asyncio import Redis

from tests.bench.bench_archive import archive_figures
from tests.bench.bench_bots import bot_figures
from tests.bench.bench_cluster import cluster_figures
from tests.bench.bench_connections import connection_figures
from tests.bench.bench_e2e import FULL, QUICK, E2ELoad, e2e_figures
from tests.bench.bench_fjords_engine import engine_figures
from tests.bench.bench_notifications import (
    FULL_NOTIFY,
    QUICK_NOTIFY,
    NotifyLoad,
    notification_figures,
)
from tests.bench.bench_peer import FULL_PEER, QUICK_PEER, TINY_PEER, PeerLoad, peer_figures
from tests.bench.bench_ratings import ratings_figures
from tests.bench.bench_socket_game import socket_game_figures
from tests.bench.bench_storage import rebuild_figures, storage_figures
from tests.bench.bench_stream import stream_figures
from tests.bench.bench_timers import (
    FULL_TIMERS,
    QUICK_TIMERS,
    TINY_TIMERS,
    TimerLoad,
    timer_figures,
)
from tests.bench.bench_web import web_figures
from tests.bench.chart import draw_load_chart


@dataclass(frozen=True)
class SuiteLoad:
    """How much work each part of the suite does."""

    e2e: E2ELoad
    engine_games: int
    storage_games: int
    rebuild_games: int
    peer: PeerLoad  # the comparison with another server, when asked for
    stream_games: int = 1
    socket_games: int = 2  # race games played over their seats' sockets (bench_socket_game)
    timers: TimerLoad = QUICK_TIMERS
    ratings_results: int = 2000  # rated results logged and folded (bench_ratings)
    # Notifications and webhooks over players' games (None: not measured).
    notify: NotifyLoad | None = QUICK_NOTIFY
    # Redis Cluster against one Redis (bench_cluster), and idle streams (bench_connections).
    cluster_games: int = 16
    cluster_commands: int = 20
    cluster_replica_sides: bool = True  # one Redis with a replica, a cluster without replicas
    idle_streams: int = 10_000
    idle_stream_games: int = 200
    # The web client in Chromium (bench_web): page loads timed, moves a spectator watches.
    web_loads: int = 10
    web_moves: int = 30


QUICK_SUITE = SuiteLoad(QUICK, engine_games=5, storage_games=2, rebuild_games=1000, peer=QUICK_PEER)
FULL_SUITE = SuiteLoad(
    FULL,
    engine_games=20,
    storage_games=5,
    rebuild_games=10_000,
    peer=FULL_PEER,
    stream_games=3,
    socket_games=8,
    timers=FULL_TIMERS,
    notify=FULL_NOTIFY,
)
# A load small enough for a smoke test of the command (figures meaningless, keys all there).
TINY_SUITE = SuiteLoad(
    E2ELoad(4, 3, 2, 5.0, 0.5, (0.5,), workers=1, warmup_s=0.2, half_max_windows=1),
    engine_games=1,
    storage_games=1,
    rebuild_games=3,
    peer=TINY_PEER,
    timers=TINY_TIMERS,
    socket_games=1,
    ratings_results=20,
    notify=NotifyLoad(4, 3, workers=1),
    cluster_games=2,
    cluster_commands=3,
    cluster_replica_sides=False,
    idle_streams=20,
    idle_stream_games=2,
    web_loads=1,
    web_moves=2,
)

# Figure -> (comparison, target) from the issue; met when `figure <op> target`.
TARGETS: dict[str, tuple[str, float]] = {
    "e2e_vs_echo": (">=", 0.25),
    "e2e_vs_naive": (">=", 5.0),
    "p99_half_max_ms": ("<", 50.0),
    "p50_light_ms": ("<", 10.0),
    "replay_vs_decode": (">=", 0.5),
    "bytes_per_event": ("<", 200.0),
    # Cold storage (docs/scaling.md): nothing left in Redis, at most 3 kB per game archived.
    "redis_bytes_per_archived_game": ("<", 1.0),
    "archive_bytes_per_game": ("<", 3001.0),
    # A seat's live stream per move late in a Looot game, against the whole view then.
    "stream_vs_view": ("<", 0.1),
    # A turn timer on every game: the end-to-end throughput at most 5 % lower than without.
    "timed_vs_untimed": (">=", 0.95),
    # One webhook endpoint receiving every player's notifications costs at most 10 %.
    "webhooks_vs_none": (">=", 0.9),
    # Redis Cluster (docs/scaling.md): a command costs at most a third more than on one Redis;
    # an API process holding 10,000 idle streams still answers /turn quickly.
    "cluster_vs_single": (">=", 0.75),
    "turn_p99_ms_streams": ("<", 50.0),
    # A game played over the seats' sockets: no HTTP request per move after the joins.
    "requests_per_move_socket": ("<", 0.01),
    # The web client: at most 200 kB of script and style on the wire (bench_web).
    "web_assets_vs_budget": ("<", 1.0),
}


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            names = [
                line.split(":", 1)[1].strip() for line in info if line.startswith("model name")
            ]
        cpu = names[0] if names else cpu
    except OSError:
        pass
    return {
        "cpus": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "system": platform.platform(terse=True),
    }


def target_report(figures: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each target with the measured figure and whether it was met."""
    report = {}
    for key, (op, target) in TARGETS.items():
        if key not in figures:  # a part that could not run here (no redis-cli for a cluster)
            continue
        value = figures[key]
        met = value >= target if op == ">=" else value < target
        report[key] = {"value": value, "target": f"{op} {target:g}", "met": met}
    return report


async def run_suite(
    redis_url: str,
    load: SuiteLoad,
    chart: Path | None = None,
    progress: Callable[[str], None] = lambda step: None,
    peer: str | None = None,
) -> dict[str, Any]:
    """Measure everything; draw the load chart into `chart` when given; measure `peer`
    (another server, see bench_peer) against Skald when named."""
    # The in-process drainer logs one line per batch: figures are the output here.
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    figures: dict[str, Any] = {"machine": machine()}
    progress("rules engine")
    figures.update(engine_figures(load.engine_games))
    progress("stand-in bots")
    figures.update(bot_figures(load.engine_games))
    redis = Redis.from_url(redis_url)
    try:
        progress("storage")
        figures.update(await storage_figures(redis, "fjords", load.storage_games))
        progress("cold storage")
        figures.update(await archive_figures(redis, "fjords", load.storage_games))
        progress(f"rebuild of {load.rebuild_games} games")
        figures.update(await rebuild_figures(redis, load.rebuild_games))
        progress("live stream")
        figures.update(await stream_figures(redis, load.stream_games))
        progress("ratings")
        figures.update(await ratings_figures(redis, load.ratings_results))
        progress("redis cluster against one redis")
        figures.update(
            await cluster_figures(
                load.cluster_games, load.cluster_commands, load.cluster_replica_sides
            )
        )
        progress(f"{load.idle_streams} idle streams")
        figures.update(
            await connection_figures(load.idle_streams, load.idle_stream_games, redis_url)
        )
    finally:
        await redis.aclose()
    progress("end to end over HTTP")
    figures.update(await e2e_figures(redis_url, load.e2e))
    progress(f"{load.socket_games} games over their sockets alone")
    figures.update(await socket_game_figures(redis_url, load.socket_games))
    progress(f"turn timers ({load.timers.pending} deadlines due at once)")
    figures.update(await timer_figures(redis_url, load.timers))
    if load.notify is not None:
        progress("notifications and webhooks over HTTP")
        figures.update(await notification_figures(redis_url, load.notify))
    progress("web client in a browser")
    # Playwright's sync API runs outside the event loop; without a build or Chromium the
    # figures say why they are missing (`web_skipped`).
    figures.update(await asyncio.to_thread(web_figures, redis_url, load.web_loads, load.web_moves))
    if peer is not None:
        figures.update(await peer_figures(peer, load.peer, progress))
    figures["targets"] = target_report(figures)
    if chart is not None:
        draw_load_chart(figures, chart)
        figures["chart"] = str(chart)
    return figures
