"""`skald archive [GAME_ID ...]`: move finished games from Redis to the archive now."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

import msgspec
import redis.exceptions

from service import bootstrap
from service.core.archiving import ArchiveReport
from service.shared.errors import Unavailable
from service.shared.logging import configure_logging
from service.shared.settings import Settings, load_plugins

from .archive import console
from .processes import backing_redis


def add_parser(subparsers: Any) -> None:
    """Register `skald archive`."""
    parser = subparsers.add_parser(
        "archive",
        help="move finished games from Redis to the archive",
        description="Archive finished games (every one due when none is named): write each "
        "as one compressed record to the archive (SKALD_ARCHIVE_URL, PostgreSQL, or else "
        "SKALD_DATA_DIR/archive), read it back and check it, then delete its Redis keys unless "
        "the game changed meanwhile. A game is due SKALD_ARCHIVE_AFTER_S seconds after its "
        "last command; --now archives every finished game at once. The workers' archiver "
        "does the same every SKALD_ARCHIVE_INTERVAL_S. Exits 1 if a game could not be "
        "archived (it stays in Redis, whole).",
    )
    parser.add_argument("game_ids", nargs="*", metavar="GAME_ID", help="games to archive")
    parser.add_argument("--now", action="store_true", help="do not wait for games to be due")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Archive the games and print what became of them."""
    configure_logging("WARNING", sys.stderr)
    settings = Settings.from_env()
    load_plugins(settings)
    with backing_redis(settings, share_running=True) as ready:
        report = asyncio.run(_archive(ready, args.game_ids or None, args.now))
    if args.json:
        sys.stdout.buffer.write(msgspec.json.encode(report) + b"\n")
    else:
        out = console()
        out.print(f"{len(report.archived)} archived, {report.not_due} not due yet")
        for game_id in report.archived:
            out.print(f"  archived  {game_id}")
        for game_id, why in report.kept.items():
            out.print(f"  kept      {game_id}: {why}", markup=False)
    failed = [why for why in report.kept.values() if why.startswith(("failed", "changed"))]
    return 1 if failed else 0


async def _archive(settings: Settings, game_ids: list[str] | None, now: bool) -> ArchiveReport:
    graph = bootstrap.archiving_graph(settings)
    try:
        return await graph.rate_and_archive(game_ids, force=now)
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
        raise Unavailable("redis.unavailable", f"cannot reach Redis: {exc}") from None
    finally:
        await graph.close()
