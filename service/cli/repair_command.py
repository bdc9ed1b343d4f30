"""`skald repair GAME_ID ...`: rebuild what a damaged game's events can rebuild."""

from __future__ import annotations

import argparse
from typing import Any

from service.facade.history_side import HistoryService
from service.history.repair import RepairReport

from .archive import console, with_history


def add_parser(subparsers: Any) -> None:
    """Register `skald repair`."""
    parser = subparsers.add_parser(
        "repair",
        help="rebuild a damaged game's views, turns and indexes from its events",
        description="Repair damaged games from their events: rebuild every view and turn, "
        "the head's chain value, and mark a game with waiting commands ready for a worker. "
        "Says what cannot be repaired (a lost event, secret, seat record or meta record): "
        "quarantine such a game. Never rewrites the evidence of a loss. Exits 1 if anything is "
        "left unrepaired, or if a game still fails one of `skald verify`'s checks once repaired.",
    )
    parser.add_argument("game_ids", nargs="+", metavar="GAME_ID", help="games to repair")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Repair each game and print what was done and what was not."""
    out = console()

    async def repair(service: HistoryService) -> list[RepairReport]:
        return [await service.repair(game_id) for game_id in args.game_ids]

    reports = with_history(repair)
    for report in reports:
        for done in report.repaired:
            out.print(f"{report.game_id}: repaired: {done}", markup=False)
        for left in report.unrepairable:
            out.print(f"{report.game_id}: NOT repaired: {left}", markup=False)
    return 1 if any(report.unrepairable for report in reports) else 0
