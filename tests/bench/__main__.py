"""The benchmark suite's entry point: `python -m tests.bench` (also `skald bench` and `make bench`
from a checkout).

The suite drives a real `skald serve` over HTTP and needs a real Redis (SKALD_REDIS_URL or
REDIS_URL, default redis://127.0.0.1:6379/0); it writes only under its own key prefixes and
deletes them afterwards. It lives with the tests, so it runs from a source checkout with the
test extras (`pip install -e '.[test]'`), not from an installed wheel.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from tests.bench import suite
from tests.bench.bench_peer import PEERS

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"

# (figure, unit, digits) in the order the table shows them.
ROWS = [
    ("e2e_per_s", "commands/s", 0),
    ("echo_per_s", "requests/s", 0),
    ("naive_per_s", "commands/s", 0),
    ("e2e_vs_echo", "ratio", 3),
    ("e2e_vs_naive", "ratio", 2),
    ("p50_light_ms", "ms", 1),
    ("p99_half_max_ms", "ms", 1),
    ("legal_commands_late_ms", "ms", 3),
    ("random_games_per_s", "games/s", 1),
    ("greedy_move_late_looot_ms", "ms", 3),
    ("replay_events_per_s", "events/s", 0),
    ("decode_events_per_s", "events/s", 0),
    ("replay_vs_decode", "ratio", 3),
    ("rebuild_events_per_s", "events/s", 0),
    ("rebuild_vs_read", "ratio", 3),
    ("bytes_per_event", "bytes", 1),
    ("bytes_vs_json", "ratio", 2),
    ("game_bytes_per_event", "bytes", 1),
    ("bytes_per_game", "bytes", 0),
    ("redis_bytes_per_game_in_play", "bytes", 0),
    ("redis_bytes_per_finished_game", "bytes", 0),
    ("redis_bytes_per_archived_game", "bytes", 0),
    ("archive_bytes_per_game", "bytes", 0),
    ("archived_replay_vs_redis", "ratio", 2),
    ("stream_bytes_per_move", "bytes", 0),
    ("view_bytes_late", "bytes", 0),
    ("stream_vs_view", "ratio", 3),
    ("requests_per_move_socket", "requests/move", 3),
    ("timer_fired_per_s", "deadlines/s", 0),
    ("e2e_untimed_per_s", "commands/s", 0),
    ("e2e_timed_per_s", "commands/s", 0),
    ("cpu_ms_untimed", "CPU ms/command", 3),
    ("cpu_ms_timed", "CPU ms/command", 3),
    ("timed_vs_untimed", "ratio", 3),
    ("timed_vs_untimed_cpu", "ratio", 3),
    ("e2e_players_per_s", "commands/s", 0),
    ("e2e_webhooks_per_s", "commands/s", 0),
    ("webhooks_vs_none", "ratio", 3),
    ("web_assets_gzip_bytes", "bytes", 0),
    ("web_assets_vs_budget", "ratio", 3),
    ("web_first_render_ms", "ms", 1),
    ("web_render_vs_plain_page", "ratio", 1),
    ("web_spectator_p50_ms", "ms", 1),
    ("web_spectator_vs_reply", "ratio", 2),
    ("notifications_delivered_per_s", "notifications/s", 0),
    ("notifications_lost", "notifications", 0),
    ("single_per_s", "commands/s", 0),
    ("cluster_per_s", "commands/s", 0),
    ("cluster_vs_single", "ratio", 2),
    ("cluster_vs_single_replicated", "ratio", 2),
    ("cluster_masters_vs_single", "ratio", 2),
    ("cluster_vs_single_concurrent", "ratio", 2),
    ("submit_us_cluster", "µs", 0),
    ("submit_us_cluster_wait", "µs", 0),
    ("wait_cost_us", "µs", 0),
    ("streams_open", "streams", 0),
    ("bytes_per_idle_stream", "bytes", 0),
    ("turn_p99_ms_idle", "ms", 1),
    ("turn_p99_ms_streams", "ms", 1),
]


def parser() -> argparse.ArgumentParser:
    """The suite's command line."""
    parser = argparse.ArgumentParser(
        prog="python -m tests.bench",
        description="Run the benchmark suite: end-to-end throughput over HTTP against an echo "
        "endpoint and the one-job-per-command design, latency at light load and at half the "
        "maximum, the rules engine, rebuilding projections, Redis bytes per event and live "
        "stream bytes per move. Needs a real Redis (SKALD_REDIS_URL or REDIS_URL).",
    )
    parser.add_argument("--quick", action="store_true", help="a short run (under 2 minutes)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--chart", type=Path, help="draw the load chart (PNG) into this file")
    parser.add_argument(
        "--workers", type=int, default=2, help="worker processes of the served Skald (default 2)"
    )
    parser.add_argument(
        "--peer",
        choices=PEERS,
        help="also measure this server on the same workload in the same run (needs Node.js; "
        "installs it with npm on first use)",
    )
    # For the smoke test of the command: every figure, on a load too small to mean anything.
    parser.add_argument("--tiny", action="store_true", help=argparse.SUPPRESS)
    return parser


def run(args: argparse.Namespace) -> int:
    """Run the suite and print its figures."""
    load = suite.TINY_SUITE if args.tiny else suite.QUICK_SUITE if args.quick else suite.FULL_SUITE
    load = dataclasses.replace(
        load,
        e2e=dataclasses.replace(load.e2e, workers=args.workers),
        peer=dataclasses.replace(load.peer, workers=args.workers),
        timers=dataclasses.replace(load.timers, workers=args.workers),
    )
    redis_url = os.environ.get("SKALD_REDIS_URL") or os.environ.get("REDIS_URL", DEFAULT_REDIS_URL)
    errors = Console(stderr=True)
    with errors.status("benchmarking…") as status:
        figures = asyncio.run(
            suite.run_suite(
                redis_url,
                load,
                args.chart,
                lambda step: status.update(f"benchmarking: {step}"),
                args.peer,
            )
        )
    if "web_skipped" in figures:
        errors.print(f"skipped the web client's browser figures: {figures['web_skipped']}")
    if "peer_skipped" in figures:
        errors.print(f"skipped the comparison with {args.peer}: {figures['peer_skipped']}")
    if args.json:
        print(json.dumps(figures))
    else:
        _print_table(figures)
        if "peer" in figures:
            _print_peer(figures)
    return 0


def _print_table(figures: dict[str, Any]) -> None:
    console = Console()
    machine = figures["machine"]
    table = Table(
        title=f"Skald benchmarks: {machine['cpus']} CPUs, {machine['cpu']}, "
        f"1 API process + {figures['e2e_workers']} workers"
    )
    for column in ("figure", "value", "unit", "target"):
        table.add_column(column, justify="right" if column == "value" else "left")
    for key, unit, digits in ROWS:
        if key not in figures:  # a part that could not run here (no redis-cli for a cluster)
            continue
        target = figures["targets"].get(key)
        verdict = ""
        if target is not None:
            verdict = f"{target['target']} {'met' if target['met'] else 'MISSED'}"
        table.add_row(key, f"{figures[key]:,.{digits}f}", unit, verdict)
    console.print(table)
    for label, row in [
        ("light", figures["latency_light"]),
        ("half max", figures["latency_half_max"]),
    ]:
        console.print(
            f"latency at {label} ({row['offered_per_s']}/s offered, {row['achieved_per_s']}/s "
            f"done): p50 {row['p50_ms']} ms, p95 {row['p95_ms']} ms, p99 {row['p99_ms']} ms"
        )
    windows = figures.get("latency_half_max_windows", [])
    if len(windows) > 1:
        p99s = ", ".join(f"{row['p99_ms']} ms" for row in windows)
        console.print(f"p99 at half max in each window: {p99s} (the median window counts)")
    if "chart" in figures:
        console.print(f"chart: {figures['chart']}")


# (figure, column title, digits) per side, in the order the comparison's table shows them.
PEER_COLUMNS = [
    ("ceiling_per_s", "ceiling /s", 0),
    ("flood_per_s", "flood /s", 0),
    ("p50_light_ms", "p50 light ms", 1),
    ("p99_half_max_ms", "p99 half max ms", 1),
]
PEER_SIDES = [
    ("skald_aof", "Skald, AOF always"),
    ("skald_memory", "Skald, no persistence"),
    ("boardgameio_memory", "boardgame.io, memory"),
    ("boardgameio_flatfile", "boardgame.io, FlatFile"),
]


def _cpu(side: dict[str, Any]) -> dict[str, float]:
    # FlatFile runs only the flood: its CPU is the flood's.
    cpu: dict[str, float] = side.get("cpu_ms_per_move") or side["flood_cpu_ms_per_move"]
    return cpu


def _print_peer(figures: dict[str, Any]) -> None:
    console = Console()
    peer = figures["peer"]
    versions = ", ".join(f"{name} {version}" for name, version in peer["versions"].items())
    table = Table(title=f"Skald against {peer['name']} ({versions}), the same workload")
    table.add_column("side")
    for _, title, _ in PEER_COLUMNS:
        table.add_column(title, justify="right")
    table.add_column("CPU ms/move", justify="right")
    sides = peer["sides"]
    for name, title in PEER_SIDES:
        side = sides[name]
        cells = [
            f"{side[key]:,.{digits}f}" if key in side else "-" for key, _, digits in PEER_COLUMNS
        ]
        table.add_row(title, *cells, f"{_cpu(side)['service']:.2f}")
    console.print(table)
    console.print("CPU ms per move by process (the ceiling run; FlatFile: the flood):")
    for name, title in PEER_SIDES:
        cpu = _cpu(sides[name])
        console.print(
            f"  {title}: " + ", ".join(f"{key} {value:.2f}" for key, value in cpu.items())
        )
    for key in sorted(key for key in figures if "_vs_boardgameio" in key):
        console.print(f"{key}: {figures[key]:.3f}")


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run the suite.

    Stopped with SIGTERM (a `timeout`, a cancelled CI job) it unwinds as on Ctrl-C: the
    servers, workers and Redis servers it started are stopped, not left running to load the
    machine under whatever is measured next."""
    signal.signal(signal.SIGTERM, _interrupted)
    return run(parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
