"""`skald demo`: a whole game played by seeded random bots through the HTTP API and the queue.

Against `--url` when given; otherwise against a service started for the run (embedded Redis
when SKALD_REDIS_URL is unset, worker processes, the API on a free port), whose data stays
under the data directory so later commands can read the game. Bots see only what a client
sees: each move comes from the rules' legal commands for its seat (GET /turn), and is
submitted with its token. `--seed` seeds the bots; the game's own draws come from the secret
seed the service draws (revealed when the game ends), as for every game.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from contracts.api import SeatJoined, Turn
from contracts.outcome import Outcome
from contracts.stream import Clock
from domain.bots import RandomBot, SeatPicker
from domain.games import game_names
from service.adapters.embedded_redis import free_port
from service.shared.logging import configure_logging
from service.shared.settings import Settings

from .client import ApiProblem, SkaldClient
from .processes import ApiServer, WorkerPool, backing_redis

# Long enough for a busy worker, short enough that a stuck demo says so.
WAIT_S = 10.0
MAX_MOVES = 100_000


class DemoError(RuntimeError):
    """The demo could not finish its game."""


SILENT_CLOCK_S = 2.0  # the silent demo's clock per move
SILENT_POLL_S = 0.5


def game_seed_hex(seed: int) -> str:
    """The game's secret seed for a demo on its own service: the same --seed, the same game."""
    return hashlib.sha256(f"skald-demo-game:{seed}".encode()).hexdigest()


def bot_seed(seed: int, seat: int) -> bytes:
    """The seed of one seat's bot: seats get distinct, reproducible move sequences."""
    return f"skald-demo:{seed}:{seat}".encode()


def seat_picker_seed(seed: int) -> bytes:
    """The seed that picks which seat acts when the game waits for several at once."""
    return f"skald-demo:{seed}:seats".encode()


class _LegalCommands:
    """Stands in for a game when a bot chooses: the legal commands come from the API."""

    def __init__(self, commands: list[dict[str, Any]]) -> None:
        self.commands = commands

    def legal_commands(self, state: Any, seat: int) -> list[dict[str, Any]]:
        return self.commands


def demo_config(args: argparse.Namespace) -> dict[str, Any]:
    """The game's config from the options; unset options are left to the game's defaults."""
    config: dict[str, Any] = {"players": args.players}
    if args.variant is not None:
        config["variant"] = args.variant
    if args.runes is not None:
        config["runes"] = [rune for rune in args.runes.split(",") if rune]
    if args.preset is not None:
        config["preset"] = args.preset
    return config


def play(
    client: SkaldClient,
    game: str,
    config: dict[str, Any],
    seed: int,
    on_move: Any = None,
    seed_hex: str | None = None,
    silent_seat: int | None = None,
) -> tuple[str, list[SeatJoined], Turn]:
    """Create a game, seat a bot per player, play to the end; (game id, seats, final turn).

    `seed_hex` fixes the game's own seed (a server that accepts chosen seeds); without it the
    server draws the seed and only the bots' choices follow `seed`. With `silent_seat`, the
    game has a turn timer and that seat stops playing after its first move: its deadlines
    pass, the service's bot plays its turns, and after two it holds the seat for good.
    """
    clock = None if silent_seat is None else Clock(per_move_s=SILENT_CLOCK_S, abandon_after=2)
    created = client.create_game(game, config, seed_hex, clock)
    seats = [client.join(created.game_id, name=f"bot {n + 1}") for n in range(created.seats)]
    tokens = {joined.seat: joined.token for joined in seats}
    bots = {joined.seat: RandomBot(bot_seed(seed, joined.seat)) for joined in seats}
    picker = SeatPicker(seat_picker_seed(seed))
    turn = client.turn(created.game_id, seats[0].token)
    for move in range(MAX_MOVES):
        if turn.finished:
            return created.game_id, seats, turn
        if not turn.to_act:
            raise DemoError(f"game {created.game_id} waits for nobody but is not finished")
        # Several seats may act at once: the seeded picker says which one does.
        if silent_seat is not None and turn.to_act == [silent_seat] and move >= created.seats:
            # The silent player does not move: wait for the service to act for the seat.
            time.sleep(SILENT_POLL_S)  # the CLI polls; the deadline fires in the workers
            turn = client.turn(created.game_id, None)
            continue
        seat = picker.pick(turn.to_act)
        if turn.seat != seat:
            turn = client.turn(created.game_id, tokens[seat])
        # The bot draws among the API's legal commands exactly as among the rules' own.
        legal: Any = _LegalCommands(turn.legal_commands)
        command: dict[str, Any] | None = bots[seat].choose(legal, None, seat)  # type: ignore[assignment]
        if command is None:
            raise DemoError(f"seat {seat} is to act but has no legal command")
        command_id = f"{created.game_id}-m{move}"
        outcome = client.submit(created.game_id, tokens[seat], command_id, command, WAIT_S)
        if outcome.status != "applied":
            raise DemoError(f"move {move} of seat {seat} was {outcome.status}, not applied")
        if on_move is not None:
            on_move(move, outcome.last_version)
        turn = client.turn(created.game_id, tokens[seat])
    raise DemoError(f"game {created.game_id} did not finish in {MAX_MOVES} moves")


def score_table(game: str, game_id: str, seats: list[SeatJoined], outcome: Outcome) -> Table:
    """The final scores: a column per player (best first), a row per scoring rule.

    Rules are rows so that a game with many of them still fits a narrow terminal.
    """
    rules = sorted({rule for score in outcome.scores for rule in score.breakdown})
    ranked = sorted(outcome.scores, key=lambda s: (s.rank, s.seat))
    names = {joined.seat: f"bot {joined.seat + 1}" for joined in seats}
    table = Table(title=f"{game} · game {game_id}", title_justify="left")
    table.add_column("")
    for score in ranked:
        winner = "★ " if score.seat in outcome.winners else ""
        header = f"{winner}{names.get(score.seat, '?')}\nseat {score.seat}"
        table.add_column(header, justify="right")
    table.add_row("rank", *(str(score.rank) for score in ranked))
    for rule in rules:
        points = (str(score.breakdown.get(rule, 0)) for score in ranked)
        table.add_row(rule.replace("_", " "), *points)
    table.add_row("total", *(str(score.total) for score in ranked), style="bold")
    if outcome.tie_break:
        table.caption = f"tie-break: {outcome.tie_break}"
    return table


@contextlib.contextmanager
def service_for_run(settings: Settings, workers: int) -> Iterator[str]:
    """A whole Skald for the duration of the block; yields the API's URL."""
    worker_log = Path(settings.data_dir) / "logs" / "demo-workers.log"
    with (
        backing_redis(settings, share_running=True) as ready,
        WorkerPool(ready, workers, log_file=worker_log, log_level="WARNING"),
    ):
        api = ApiServer(ready, "127.0.0.1", free_port())
        api.start_in_thread()
        try:
            yield api.url
        finally:
            api.stop()


def add_parser(subparsers: Any) -> None:
    """Register `skald demo`."""
    parser = subparsers.add_parser(
        "demo",
        help="play a whole game with bots through the HTTP API",
        description="Play a whole game with seeded random bots through the HTTP API and the "
        "queue, then print the final score table and the game id.",
    )
    parser.add_argument("--game", default=None, help="which game (default: the first known)")
    parser.add_argument("--players", type=int, default=2, help="seats (default 2)")
    parser.add_argument(
        "--seed",
        type=int,
        default=7,
        help="seed of the bots' choices and, on the demo's own service, of the game's draws "
        "(with --url the server draws the game's seed)",
    )
    parser.add_argument("--url", help="play against this running API instead of starting one")
    parser.add_argument("--variant", help="the game's variant (passed as config.variant)")
    parser.add_argument("--runes", help="comma-separated rune stones (config.runes)")
    parser.add_argument("--preset", help="a named setup (config.preset)")
    parser.add_argument(
        "--workers", type=int, default=2, help="worker processes when starting a service"
    )
    parser.add_argument(
        "--silent-seat",
        type=int,
        default=None,
        help="this seat goes silent after its first move: a turn timer runs out and a bot "
        "finishes the game for it",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the demo game and print its scores."""
    console = Console()
    # The service started for the run logs only warnings: the score table is the output.
    configure_logging("WARNING")
    game = args.game or game_names()[0]
    config = demo_config(args)
    with contextlib.ExitStack() as stack:
        # Only the demo's own service accepts a chosen seed; a server at --url draws its own.
        settings = Settings.from_env(allow_chosen_seeds=True)
        url = args.url or stack.enter_context(service_for_run(settings, args.workers))
        seed_hex = None if args.url else game_seed_hex(args.seed)
        with console.status(f"{game}: playing…") as status, SkaldClient(url) as client:

            def on_move(move: int, version: int | None) -> None:
                status.update(f"{game}: move {move + 1}, version {version}")

            try:
                game_id, seats, final = play(
                    client,
                    game,
                    config,
                    args.seed,
                    on_move,
                    seed_hex=seed_hex,
                    silent_seat=args.silent_seat,
                )
            except ApiProblem as problem:
                raise DemoError(str(problem)) from None
    assert final.outcome is not None
    console.print(score_table(game, game_id, seats, final.outcome))
    console.print(f"game id: [bold]{game_id}[/bold]")
    return 0
