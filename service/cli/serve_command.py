"""`skald serve`: the API on uvicorn plus worker processes (and Redis if none is configured)."""

from __future__ import annotations

import argparse
import os
from typing import Any

from service.shared.logging import configure_logging
from service.shared.settings import Settings

from .processes import (
    DISPATCHER_MODULE,
    ApiServer,
    WorkerPool,
    backing_redis,
    raise_shutdown_on_sigterm,
)

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_WORKERS = 2


def add_parser(subparsers: Any) -> None:
    """Register `skald serve`."""
    parser = subparsers.add_parser(
        "serve",
        help="run the API and workers",
        description="Run the HTTP API and worker processes. Without SKALD_REDIS_URL an "
        "embedded redis-server is started with its data (AOF on) under SKALD_DATA_DIR, and "
        "stopped on exit.",
    )
    parser.add_argument(
        "--host", default=os.environ.get("SKALD_HOST", DEFAULT_HOST), help="address to bind"
    )
    parser.add_argument(
        "--port",
        type=int,
        default=int(os.environ.get("SKALD_PORT", DEFAULT_PORT)),
        help=f"port to listen on (default {DEFAULT_PORT}, or SKALD_PORT)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=DEFAULT_WORKERS,
        help=f"worker processes to run (default {DEFAULT_WORKERS}; 0 for the API alone)",
    )
    parser.add_argument("--log-level", default="INFO", help="DEBUG, INFO, WARNING...")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; stops workers, then Redis, on the way out."""
    configure_logging(args.log_level)
    raise_shutdown_on_sigterm()
    with (
        backing_redis(Settings.from_env()) as settings,
        WorkerPool(settings, args.workers, log_level=args.log_level),
        # The webhook dispatcher beside the workers (none when the API runs alone).
        WorkerPool(
            settings, min(args.workers, 1), log_level=args.log_level, module=DISPATCHER_MODULE
        ),
    ):
        ApiServer(settings, args.host, args.port).run()
    return 0
