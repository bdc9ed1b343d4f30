"""`skald audit GAME_ID N`: everything about the move that produced version N (or a command)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import msgspec
from rich.console import Console

from contracts.history import AuditReport, ChainCheck, FairnessReport
from service.facade.history_side import HistoryService
from service.history.audit import audit_command, audit_version
from service.history.disclosure import OPERATOR
from service.history.record import GameHistory

from .archive import console, with_history


def add_parser(subparsers: Any) -> None:
    """Register `skald audit`."""
    parser = subparsers.add_parser(
        "audit",
        help="audit the move that produced a version, or a command by id",
        description="Audit one move to settle a dispute: the command as received (seat, "
        "command id, time, request id), the table before it, the legal alternatives then, "
        "the events it produced or why it was refused, whether the hash chain holds up to it "
        "and, once the game is over, the seed check. Refused commands are audited by id.",
    )
    parser.add_argument("game_id", metavar="GAME_ID", help="the game")
    parser.add_argument("version", nargs="?", type=int, metavar="N", help="the version")
    # dest: `command` is the sub-command's name in the top-level parser.
    parser.add_argument(
        "--command", dest="command_id", metavar="ID", help="audit this command id instead"
    )
    parser.add_argument(
        "--seat",
        type=int,
        metavar="SEAT",
        help="the seat that sent the --command id (command ids are per seat; needed only when "
        "several seats used the id; -1 for the service's own commands)",
    )
    parser.add_argument("--json", action="store_true", help="print the audit as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the audit of one move."""
    if (args.version is None) == (args.command_id is None):
        raise ValueError("name either a version N or --command ID")

    async def audit(service: HistoryService) -> tuple[GameHistory, AuditReport]:
        history = await service.history(args.game_id)
        if args.command_id is not None:
            return history, audit_command(history, args.seat, args.command_id, OPERATOR)
        return history, audit_version(history, args.version, OPERATOR)

    history, report = with_history(audit)
    if args.json:
        sys.stdout.buffer.write(msgspec.json.encode(report) + b"\n")
    else:
        print_audit(console(), history, report)
    return 0


def _json(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def print_audit(out: Console, history: GameHistory, report: AuditReport) -> None:
    """The audit, readable."""
    out.print(f"[bold]Audit of game {report.game_id}, {_subject(report)}[/bold]", markup=True)
    received = report.command
    if received is not None:
        out.print(f"  status       {report.status}")
        out.print(f"  seat         {received.seat}")
        out.print(f"  command id   {received.command_id}", markup=False)
        out.print(f"  received at  {received.received_at}")
        out.print(f"  request id   {received.request_id}", markup=False)
        out.print(f"  command      {_json(received.command)}", markup=False)
    out.print()
    out.print(f"[bold]Table before[/bold] (version {report.version_before})")
    state = history.state_at(report.version_before)
    out.print(history.game.render_text(state) if state is not None else "(none yet)", markup=False)
    if report.legal_alternatives is not None:
        out.print()
        out.print(f"[bold]Legal alternatives then[/bold] ({len(report.legal_alternatives)})")
        for command in report.legal_alternatives:
            out.print(f"  {_json(command)}", markup=False)
    out.print()
    if report.refusal is not None:
        refusal = report.refusal
        out.print("[bold]Refused[/bold]: ", end="")
        out.print(f"{refusal.code}: {refusal.message}", markup=False)
        if refusal.details:
            out.print(f"  details {_json(refusal.details)}", markup=False)
    else:
        out.print(f"[bold]Events[/bold] ({len(report.events)})")
        for record in report.events:
            out.print(f"  v{record.version} {_json(record.event)}", markup=False)
    out.print()
    out.print(chain_line(report.chain))
    if report.fairness is not None:
        out.print(fairness_line(report.fairness), markup=False)


def _subject(report: AuditReport) -> str:
    version = f"version {report.version}" if report.version is not None else ""
    if report.subject == "opening":
        return f"{version}: the opening (GameCreated and setup; no command)"
    if report.subject == "seed":
        return f"{version}: the seed revealed at the end"
    if report.subject == "service":
        return f"{version}: the service's own event (no command's span holds it)"
    if report.subject == "bot":
        return f"{version}: a bot's move"
    assert report.command is not None
    command = f"command {report.command.command_id}"
    return f"{version} ({command})" if version else command


def chain_line(chain: ChainCheck) -> str:
    """The hash chain's verdict in one line."""
    if chain.holds:
        return f"Hash chain: holds up to version {chain.up_to}"
    return f"Hash chain: BROKEN at version {chain.first_broken_version} (checked to {chain.up_to})"


def fairness_line(report: FairnessReport) -> str:
    """The seed check's verdict in one line."""
    return f"Fairness: {report.status}: {report.detail}"
