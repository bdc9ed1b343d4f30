"""`skald worker`: worker processes alone, for a Redis someone else runs."""

from __future__ import annotations

import argparse
import os
import sys
import threading
from typing import Any

from service.adapters.embedded_redis import running_url
from service.shared.logging import configure_logging
from service.shared.settings import ENV_PREFIX, Settings

from .processes import WORKER_MODULE, WorkerPool, raise_shutdown_on_sigterm


def add_parser(subparsers: Any) -> None:
    """Register `skald worker`."""
    parser = subparsers.add_parser(
        "worker",
        help="run workers alone",
        description="Run worker processes that apply queued commands. They use "
        "SKALD_REDIS_URL, or else the embedded Redis of a `skald serve` running over the "
        "same SKALD_DATA_DIR.",
    )
    parser.add_argument("--count", type=int, default=1, help="worker processes to run (default 1)")
    parser.add_argument("--log-level", default="INFO", help="DEBUG, INFO, WARNING...")
    parser.set_defaults(run=run)


def resolve_settings() -> Settings:
    """Settings with a Redis URL: configured, or that of a running embedded Redis."""
    settings = Settings.from_env()
    if settings.redis_url:
        return settings
    url = running_url(settings.data_dir)
    if url is None:
        raise ValueError(
            "no Redis to work on: set SKALD_REDIS_URL, or run `skald serve` over the same "
            f"data directory ({os.path.abspath(settings.data_dir)})"
        )
    return settings.with_redis_url(url)


def run(args: argparse.Namespace) -> int:
    """Run the workers until interrupted."""
    settings = resolve_settings()
    if args.count == 1:
        # One worker: become it, so signals (and RQ's warm shutdown) reach it directly.
        os.environ[ENV_PREFIX + "REDIS_URL"] = settings.redis_url
        command = [sys.executable, "-m", WORKER_MODULE, "--log-level", args.log_level]
        os.execv(sys.executable, command)
    configure_logging(args.log_level)
    raise_shutdown_on_sigterm()
    with WorkerPool(settings, args.count, log_level=args.log_level):
        threading.Event().wait()  # until SIGINT/SIGTERM unwinds the pool
    return 0
