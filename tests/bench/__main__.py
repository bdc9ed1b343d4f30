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
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from tests.bench import suite

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
    ("replay_events_per_s", "events/s", 0),
    ("decode_events_per_s", "events/s", 0),
    ("replay_vs_decode", "ratio", 3),
    ("rebuild_events_per_s", "events/s", 0),
    ("rebuild_vs_read", "ratio", 3),
    ("bytes_per_event", "bytes", 1),
    ("bytes_vs_json", "ratio", 2),
    ("game_bytes_per_event", "bytes", 1),
    ("bytes_per_game", "bytes", 0),
    ("stream_bytes_per_move", "bytes", 0),
    ("view_bytes_late", "bytes", 0),
    ("stream_vs_view", "ratio", 3),
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
    # For the smoke test of the command: every figure, on a load too small to mean anything.
    parser.add_argument("--tiny", action="store_true", help=argparse.SUPPRESS)
    return parser


def run(args: argparse.Namespace) -> int:
    """Run the suite and print its figures."""
    load = suite.TINY_SUITE if args.tiny else suite.QUICK_SUITE if args.quick else suite.FULL_SUITE
    load = dataclasses.replace(load, e2e=dataclasses.replace(load.e2e, workers=args.workers))
    redis_url = os.environ.get("SKALD_REDIS_URL") or os.environ.get("REDIS_URL", DEFAULT_REDIS_URL)
    errors = Console(stderr=True)
    with errors.status("benchmarking…") as status:
        figures = asyncio.run(
            suite.run_suite(
                redis_url, load, args.chart, lambda step: status.update(f"benchmarking: {step}")
            )
        )
    if args.json:
        print(json.dumps(figures))
    else:
        _print_table(figures)
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


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run the suite."""
    return run(parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
