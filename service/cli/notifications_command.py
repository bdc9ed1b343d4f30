"""`skald notifications rebuild [GAME_ID ...]`: rebuild players' notification feeds from
their games' events."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from service import bootstrap
from service.core.notifying.rebuild import FeedsRebuilt
from service.shared.settings import load_plugins

from .archive import console
from .worker_command import resolve_settings


def add_parser(subparsers: Any) -> None:
    """Register `skald notifications`."""
    parser = subparsers.add_parser(
        "notifications",
        help="players' notification feeds",
        description="Work on the players' notification feeds.",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    rebuild = actions.add_parser(
        "rebuild",
        help="rebuild notification feeds from the games' events",
        description="Clear and rebuild, from events, the notification feeds of the players of "
        "the games named (every game in Redis or archived when none is named), from every game "
        "of those players: the same notifications (ids, kinds, versions), deadline reminders "
        "included, up to what the notification projector has covered. Nothing is queued for "
        "webhook delivery again.",
    )
    rebuild.add_argument(
        "game_ids", nargs="*", metavar="GAME_ID", help="games whose players' feeds to rebuild"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Rebuild the feeds and print what was done."""
    settings = resolve_settings()
    load_plugins(settings)  # the games' rules fold their events

    async def go() -> FeedsRebuilt:
        redis = bootstrap.event_client(settings)  # one Redis, or the cluster
        try:
            return await bootstrap.rebuild_notifications(redis, settings, args.game_ids or None)
        finally:
            await redis.aclose()

    done = asyncio.run(go())
    console().print(
        f"{done.players} player feed(s) rebuilt from {done.games} game(s): "
        f"{done.notifications} notification(s)",
        markup=False,
    )
    return 0
