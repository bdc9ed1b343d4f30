"""`skald verify [GAME_ID ...]`: check stored games (all by default); non-zero on any failure."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import msgspec
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from contracts.history import GameVerification
from service.facade.history_side import HistoryService
from service.history.verify import FROZEN_GRACE_S, is_quarantined

from .archive import console, with_history


def add_parser(subparsers: Any) -> None:
    """Register `skald verify`."""
    parser = subparsers.add_parser(
        "verify",
        help="check stored games: chain, events, projections, seed",
        description="Verify stored games (every game in Redis when none is named; games in "
        "the archive too with --archived, or when named: the archive holds every game ever "
        "played, and reading it all back is an audit to run on purpose): rebuild each from "
        "its events, check its hash chain (naming the first bad version), its command "
        "outcomes, its projections against a fresh rebuild, and its revealed seed and every "
        "draw; and its keys: the secret of a live game, every taken seat's record, and "
        "that no command waits frozen. Games are found by any of their keys, so one whose "
        "meta was lost is listed too. Prints a summary; exits 1 if any check failed "
        "(quarantined games are listed apart and do not fail the run).",
    )
    parser.add_argument("game_ids", nargs="*", metavar="GAME_ID", help="games to verify")
    parser.add_argument("--json", action="store_true", help="print every report as JSON")
    parser.add_argument(
        "--archived",
        action="store_true",
        help="with no game named, verify the archived games too (each read from the archive)",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=FROZEN_GRACE_S,
        metavar="SECONDS",
        help=f"how long a command may wait unattended before its game is reported frozen "
        f"(default {FROZEN_GRACE_S:g})",
    )
    parser.set_defaults(run=run)


def progress_bar(out: Console) -> Progress:
    """A progress bar over games (drawn only on a terminal)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=out,
        transient=True,
    )


def run(args: argparse.Namespace) -> int:
    """Verify the games and print the summary."""
    out = console()

    async def verify(service: HistoryService) -> list[GameVerification]:
        listed = service.every_game_id if args.archived else service.game_ids
        game_ids = list(args.game_ids) or await listed()
        with progress_bar(Console(stderr=True)) as progress:
            task = progress.add_task("verifying", total=len(game_ids))

            def done(report: GameVerification) -> None:
                progress.update(task, advance=1, description=f"verified {report.game_id}")

            return await service.verify_all(game_ids, done, args.grace)

    reports = with_history(verify)
    failed = [report for report in reports if not report.ok and not is_quarantined(report)]
    if args.json:
        sys.stdout.buffer.write(msgspec.json.encode(reports) + b"\n")
    else:
        print_summary(out, reports, failed)
    return 1 if failed else 0


def print_summary(
    out: Console, reports: list[GameVerification], failed: list[GameVerification]
) -> None:
    """Every failed check, then the totals."""
    if failed:
        table = Table(title="Failed checks", title_justify="left")
        table.add_column("Game")
        table.add_column("Check")
        table.add_column("Version", justify="right")
        table.add_column("Detail")
        for report in failed:
            for check in report.checks:
                if check.status == "failed":
                    version = "" if check.version is None else str(check.version)
                    table.add_row(report.game_id, check.name, version, check.detail)
        out.print(table)
    quarantined = [report for report in reports if is_quarantined(report)]
    for report in quarantined:
        out.print(f"quarantined: {report.game_id}: {report.checks[0].detail}", markup=False)
    skipped = sum(1 for r in reports for check in r.checks if check.status == "skipped")
    ok = len(reports) - len(failed) - len(quarantined)
    out.print(
        f"{counted(len(reports), 'game')} verified: {ok} ok, {len(failed)} failed"
        + (f", {len(quarantined)} quarantined" if quarantined else "")
        + (f" ({counted(skipped, 'check')} skipped: see --json)" if skipped else "")
    )


def counted(number: int, noun: str) -> str:
    """`1 game`, `2 games`."""
    return f"{number} {noun}{'' if number == 1 else 's'}"
