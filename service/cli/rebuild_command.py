"""`skald rebuild-projections [GAME_ID ...]`: recompute every projection from events."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from service import bootstrap
from service.core.ratings.ledger import LedgerReport
from service.facade.history_side import HistoryService
from service.history.archived_games import ArchiveBackedStore
from service.history.rebuild import RebuildResult
from service.shared.settings import Settings

from .archive import console, with_history
from .verify_command import counted, progress_bar


def add_parser(subparsers: Any) -> None:
    """Register `skald rebuild-projections`."""
    parser = subparsers.add_parser(
        "rebuild-projections",
        help="recompute every projection from events",
        description="Recompute each stored game's projections (every seat's view, the public "
        "view, the turns) from its events, encoded as the workers encode them, and store them "
        "unless a worker stored newer ones meanwhile. Every game in Redis when none is named "
        "(an archived game stores no projections: they are computed from its archived events "
        "when it is read, so there is nothing to rebuild), and then "
        "the ratings too, folded again from their log (docs/ratings.md); exits 1 if any game "
        "could not be rebuilt.",
    )
    parser.add_argument("game_ids", nargs="*", metavar="GAME_ID", help="games to rebuild")
    parser.add_argument(
        "--ratings-from-games",
        action="store_true",
        help="drop the ratings log too and log every finished game again, in the order they "
        "finished (by default the ratings are folded again from the log, after logging the "
        "finished games missing from it)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Rebuild the projections and print what was done."""
    out = console()

    ratings: list[LedgerReport] = []

    async def rebuild(service: HistoryService) -> list[RebuildResult]:
        game_ids = list(args.game_ids) or await service.game_ids()
        results = []
        with progress_bar(Console(stderr=True)) as progress:
            task = progress.add_task("rebuilding", total=len(game_ids))
            for game_id in game_ids:
                results.append(await service.rebuild(game_id))
                progress.update(task, advance=1, description=f"rebuilt {game_id}")
        if not args.game_ids and isinstance(service.store, ArchiveBackedStore):
            settings = Settings.from_env()
            ratings.append(
                await bootstrap.rebuild_ratings(service.store, settings, args.ratings_from_games)
            )
        return results

    results = with_history(rebuild)
    failed = [result for result in results if result.status == "failed"]
    for result in failed:
        out.print(f"failed: {result.game_id}: {result.detail}", markup=False)
    rebuilt = sum(1 for result in results if result.status == "rebuilt")
    newer = sum(1 for result in results if result.status == "newer")
    out.print(
        f"{counted(len(results), 'game')}: {rebuilt} rebuilt, {newer} kept (newer projections), "
        f"{len(failed)} failed"
    )
    for report in ratings:
        for game_id, why in (report.failed or {}).items():
            out.print(f"ratings: failed: {game_id}: {why}", markup=False)
        out.print(
            f"ratings: {report.logged} finished games logged ({report.rated} rated), "
            f"{report.folded} rated results folded"
        )
    return 1 if failed or any(report.failed for report in ratings) else 0
