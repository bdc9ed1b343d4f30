"""`skald replay GAME_ID --at N`: the table at a version, drawn in the terminal, and the moves."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import msgspec

from contracts.history import ReplayFrame
from service.facade.history_side import HistoryService
from service.history.disclosure import OPERATOR
from service.history.record import GameHistory
from service.history.replay import replay_frame

from .archive import console, with_history


def add_parser(subparsers: Any) -> None:
    """Register `skald replay`."""
    parser = subparsers.add_parser(
        "replay",
        help="draw a game at any version and list its moves",
        description="Replay a stored game from its events: draw the table as it stood at "
        "version N (the latest by default) and list every move up to then. An operator "
        "command: it shows everything, hidden information of a game in progress included.",
    )
    parser.add_argument("game_id", metavar="GAME_ID", help="the game to replay")
    parser.add_argument("--at", type=int, metavar="N", help="the version (default: latest)")
    parser.add_argument(
        "--seat", type=int, help="with --json: whose view to include (default: the public)"
    )
    parser.add_argument("--json", action="store_true", help="print the replay as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the replay of one game."""

    async def replay(service: HistoryService) -> tuple[GameHistory, ReplayFrame]:
        history = await service.history(args.game_id)
        return history, replay_frame(history, OPERATOR, args.at, args.seat)

    history, frame = with_history(replay)
    if args.json:
        sys.stdout.buffer.write(msgspec.json.encode(frame) + b"\n")
        return 0
    out = console()
    status = "over" if frame.finished else "in progress"
    out.print(
        f"[bold]{frame.game}[/bold] game {frame.game_id} · rules {frame.rules_version} · "
        f"version {frame.version} of {frame.last_version} · {status}"
    )
    out.print()
    state = history.state_at(frame.version)
    if state is None:
        out.print("(no table yet: version 1 holds only GameCreated)")
    else:
        out.print(history.game.render_text(state), markup=False)
    out.print()
    out.print(f"[bold]Moves[/bold] ({len(frame.moves)} up to version {frame.version})")
    for move in frame.moves:
        out.print(f"  {move.text}", markup=False)
    return 0
