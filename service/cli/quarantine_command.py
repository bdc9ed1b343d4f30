"""`skald quarantine GAME_ID [--release]`: take a game out of service, or put it back."""

from __future__ import annotations

import argparse
from typing import Any

from service.facade.history_side import HistoryService

from .archive import console, with_history


def add_parser(subparsers: Any) -> None:
    """Register `skald quarantine`."""
    parser = subparsers.add_parser(
        "quarantine",
        help="take a game out of service (or --release it)",
        description="Quarantine a game: every command and read of it is refused with the "
        "problem `game.quarantined` (503) and `skald verify` lists it as quarantined, until "
        "`skald quarantine --release` puts it back (commands that waited then get a worker).",
    )
    parser.add_argument("game_id", metavar="GAME_ID", help="the game")
    parser.add_argument("--reason", default="damaged", help="why (shown to clients)")
    parser.add_argument("--release", action="store_true", help="put the game back in service")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Quarantine or release the game and say so."""
    out = console()

    async def act(service: HistoryService) -> bool:
        if args.release:
            return await service.release(args.game_id)
        return await service.quarantine(args.game_id, args.reason)

    done = with_history(act)
    if args.release:
        message = "released" if done else "was not quarantined"
    else:
        message = "quarantined" if done else "was already quarantined"
    out.print(f"{args.game_id}: {message}", markup=False)
    return 0
