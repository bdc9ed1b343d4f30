"""`skald bench`: runs the benchmark suite's own entry point (`python -m tests.bench`) from a
source checkout.

The suite lives with the tests, and the service does not import them: this command only
becomes the suite's process (exec: a signal sent to `skald bench` reaches the suite, which
then stops what it started), in the checkout the installed package was made from, with the
same arguments.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

CHECKOUT = Path(__file__).resolve().parents[2]


def add_parser(subparsers: Any) -> None:
    """Register `skald bench`."""
    parser = subparsers.add_parser(
        "bench",
        help="measure throughput, latency, rules, rebuild and storage (from a checkout)",
        description="Run the benchmark suite of a source checkout (`python -m tests.bench`); "
        "every argument goes to the suite (`skald bench --help` shows its own).",
        # Every argument, options included, belongs to the suite: this parser reads none.
        prefix_chars="+",
        add_help=False,
    )
    parser.add_argument("suite_args", nargs=argparse.REMAINDER, help="the suite's arguments")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> NoReturn:
    """Replace this process with the suite's (its exit status is the command's)."""
    if not (CHECKOUT / "tests" / "bench" / "__main__.py").is_file():
        raise ValueError(
            "the benchmark suite runs from a source checkout with its test extras "
            "(pip install -e '.[test]'); this installation has no tests/bench"
        )
    sys.stdout.flush()
    sys.stderr.flush()
    os.chdir(CHECKOUT)
    os.execv(sys.executable, [sys.executable, "-m", "tests.bench", *args.suite_args])
