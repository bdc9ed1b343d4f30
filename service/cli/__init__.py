"""The `skald` command: one sub-command per module in this package.

    skald serve      the API and workers (and an embedded Redis when none is configured)
    skald worker     workers alone
    skald demo       a whole game played by bots through the HTTP API
    skald openapi    print the OpenAPI document
    skald asyncapi   print the AsyncAPI document (the socket's and the streams' messages)
    skald replay     draw a stored game at any version, with its move list
    skald audit      everything about one move (by version or command id)
    skald verify     check stored games: chain, events, projections, seed and draws
    skald rebuild-projections   recompute every projection from events
    skald notifications rebuild  rebuild players' notification feeds from events
    skald repair     rebuild a damaged game's views, turns and indexes from its events
    skald quarantine take a game out of service (or --release it)
    skald archive    move finished games from Redis to the archive (cold storage)
    skald bench      the benchmark suite (from a source checkout)

Settings come from SKALD_* environment variables (see service.shared.settings). A sub-command is a
module here and a line in COMMANDS.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from service.adapters.embedded_redis import EmbeddedRedisError
from service.cli import (
    archive_command,
    asyncapi_command,
    audit_command,
    bench_command,
    demo_command,
    notifications_command,
    openapi_command,
    quarantine_command,
    rebuild_command,
    repair_command,
    replay_command,
    serve_command,
    verify_command,
    webhooks_command,
    worker_command,
)
from service.cli.demo_command import DemoError
from service.cli.processes import Shutdown
from service.shared.errors import ServiceError

# Each module offers `add_parser(subparsers)`, which sets `run(args) -> exit status`.
COMMANDS = (
    serve_command,
    worker_command,
    demo_command,
    openapi_command,
    asyncapi_command,
    replay_command,
    audit_command,
    verify_command,
    rebuild_command,
    repair_command,
    quarantine_command,
    archive_command,
    bench_command,
    webhooks_command,
    notifications_command,
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `skald` and its sub-commands."""
    parser = argparse.ArgumentParser(
        prog="skald",
        description="Skald: an event-sourced back end for turn-based board games.",
        epilog="Settings are read from SKALD_* environment variables, e.g. SKALD_REDIS_URL, "
        "SKALD_DATA_DIR (default ./.skald).",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run `skald` with `argv` (sys.argv by default) and return its exit status."""
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except (KeyboardInterrupt, Shutdown):
        return 0
    except (EmbeddedRedisError, ServiceError, DemoError, ValueError) as exc:
        print(f"skald {args.command}: {exc}", file=sys.stderr)
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
