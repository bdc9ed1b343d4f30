"""What the service plays itself, inside a command's decision: the bots' moves, a bot standing
in for a seat whose deadline passed, and the turn clocks after each command.

Pure apart from the session and the list of events it advances (like `apply`). Bots (each
game's greedy bot) choose only among `legal_commands`, seeded by the game's seed and the
version, so a replay draws the same moves; their events carry the command id
`bot:<seat>:<version>:<bot>` (a colon: no client id holds one), which is how audit tells a
bot's move from a player's and the fairness check which bot to re-derive it with (`BotMove`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Literal

from contracts.base import Command
from contracts.stream import (
    BOT_ID_PREFIX,
    SeatAbandoned,
    SeatForfeited,
    TurnSkipped,
    TurnTimedOut,
)
from domain import engine
from domain.bots import RandomBot
from domain.engine import Game
from service.core.pipeline.chain import link
from service.core.pipeline.clocks import new_deadlines, next_clocks
from service.core.pipeline.lifecycle import SystemRefused, TimeOut
from service.core.pipeline.session import GameSession
from service.core.ports.records import NewEvent

MAX_BOT_MOVES = 10_000  # per command: a game of bots alone still ends, but never loops here
Deadline = tuple[int, int, int]  # (seat, since, deadline ms)
BotKind = Literal["random", "greedy", "pass"]
PASS_SUFFIX: BotKind = "pass"  # ends the command id of a passing move played for a skipped seat
# The bot that stands in for seats now. Ids without a marker were written before the marker
# existed, when stand-ins picked uniformly: they mean "random", so such games still verify.
STANDIN_BOT: BotKind = "greedy"
UNMARKED_BOT: BotKind = "random"
BOT_KINDS: tuple[BotKind, ...] = ("random", "greedy", "pass")


def append(session: GameSession, out: list[NewEvent], data: bytes, command_id: str | None) -> None:
    """Chain one encoded event onto the session and the plan's events."""
    session.head_hash = link(session.head_hash, data)
    session.version += 1
    out.append(NewEvent(data, session.head_hash, command_id))


def append_service(
    session: GameSession, out: list[NewEvent], event: Any, command_id: str | None
) -> None:
    """Append a service event (contracts.stream) and follow it."""
    append(session, out, session.codec.encode_event(event), command_id)
    session.follow_lifecycle(event)


def evolve_all(
    session: GameSession, out: list[NewEvent], events: list[Any], command_id: str
) -> bool:
    """Fold and append one command's events; whether they end the game."""
    game = session.game
    for event in events:
        session.state = game.evolve(session.state, event)
        append(session, out, session.codec.encode_event(event), command_id)
    return bool(events) and game.outcome(session.state) is not None


@dataclass(frozen=True)
class BotMove:
    """What a bot move's command id says: the seat, the version it was chosen at, and which
    bot chose it ("pass": the game's passing command, played for a skipped seat)."""

    seat: int
    version: int
    kind: BotKind


def bot_command_id(seat: int, version: int, kind: BotKind | None = None) -> str:
    """The command id of a bot's move (by default the stand-in bot's, `STANDIN_BOT`)."""
    kind = STANDIN_BOT if kind is None else kind
    marker = "" if kind == UNMARKED_BOT else f":{kind}"
    return f"{BOT_ID_PREFIX}{seat}:{version}{marker}"


def parse_bot_id(command_id: str) -> BotMove | None:
    """The bot move a command id names, or None when it is no bot's id (or a malformed one)."""
    if not command_id.startswith(BOT_ID_PREFIX):
        return None
    parts = command_id[len(BOT_ID_PREFIX) :].split(":")
    if len(parts) not in (2, 3) or not all(part.isdigit() for part in parts[:2]):
        return None
    kind = parts[2] if len(parts) == 3 else UNMARKED_BOT
    if kind not in BOT_KINDS:
        return None
    return BotMove(int(parts[0]), int(parts[1]), kind)


def bot_command(
    game: Game, state: Any, seat: int, seed: bytes, version: int, kind: BotKind | None = None
) -> Command | None:
    """The bot's move for `seat` at `version`, seeded by the game's seed and the version, so
    a replay (and the fairness check) draws the same one: the game's greedy bot, or (`random`,
    what stand-ins played before the greedy bots) a uniform pick among the legal commands."""
    kind = STANDIN_BOT if kind is None else kind
    draw = hashlib.sha256(seed + b"bot" + version.to_bytes(8, "big")).digest()
    if kind == "random":
        return RandomBot(draw).choose(game, state, seat)
    if kind == "pass":
        return game.pass_command(state, seat)
    return game.greedy_bot(draw).choose(game, state, seat)


def _bot_move(session: GameSession, out: list[NewEvent], seat: int) -> bool | None:
    """One bot move for `seat`: whether it ended the game, None when it had nothing to do."""
    game = session.game
    kind = STANDIN_BOT
    command = bot_command(game, session.state, seat, session.seed, session.version, kind)
    if command is None:
        return None
    events = engine.decide(game, session.state, command, seat, session.chance)
    if not events:
        return None
    return evolve_all(session, out, events, bot_command_id(seat, session.version, kind))


def bot_moves(session: GameSession, out: list[NewEvent]) -> bool:
    """Play the bots' seats while the game waits for them; whether the game ended."""
    for _ in range(MAX_BOT_MOVES):
        if not session.bots or session.phase != "started":
            return False
        waiting = sorted(set(session.game.to_act(session.state)) & session.bots)
        if not waiting:
            return False
        ended = _bot_move(session, out, waiting[0])
        if ended is None:
            return False
        if ended:
            return True
    return False


def check_current(session: GameSession, timeout: TimeOut) -> None:
    """SystemRefused unless the timeout names a deadline the game still waits on."""
    clocks = session.clocks
    entry = None
    if clocks is not None and session.phase == "started":
        entry = next((e for e in clocks.entries if e.seat == timeout.seat), None)
    if entry is None or entry.since != timeout.since:
        raise SystemRefused(
            "timer.stale",
            "this deadline is no longer current: the seat moved before it was acted on",
        )


def pass_command_id(seat: int, version: int) -> str:
    """The command id of a passing move the service plays for a skipped seat (a bot's id, so
    audit marks it; the fairness check re-derives it from the game's `pass_command`)."""
    return bot_command_id(seat, version, PASS_SUFFIX)


def _pass_move(session: GameSession, out: list[NewEvent], seat: int) -> bool | None:
    """The seat passes its current decision, or (where it has no passing choice) the bot
    makes that one decision: whether it ended the game, None when nothing was played."""
    game = session.game
    command = game.pass_command(session.state, seat)
    if command is None:
        return _bot_move(session, out, seat)
    events = engine.decide(game, session.state, command, seat, session.chance)
    if not events:
        return None
    return evolve_all(session, out, events, pass_command_id(seat, session.version))


def time_out(session: GameSession, out: list[NewEvent], timeout: TimeOut, command_id: str) -> bool:
    """A current deadline passed (`check_current`): record it, then the clock's policy acts
    (`on_timeout`): a bot plays the seat's turn (`bot`), the seat passes it (`skip`), or the
    seat is out and a bot holds it (`forfeit`); after too many missed turns in a row the seat
    is abandoned to a bot. Whether the game ended."""
    clocks, clock = session.clocks, session.clock
    assert clocks is not None and clock is not None
    seat = timeout.seat
    missed = clocks.missed[seat] + 1
    append_service(session, out, TurnTimedOut(seat, missed), command_id)
    if clock.on_timeout == "forfeit" and seat not in session.bots:
        append_service(session, out, SeatForfeited(seat), command_id)
    elif missed >= clock.abandon_after and seat not in session.bots:
        append_service(session, out, SeatAbandoned(seat), command_id)
    skip = clock.on_timeout == "skip" and seat not in session.bots
    if skip:
        append_service(session, out, TurnSkipped(seat), command_id)
    for _ in range(MAX_BOT_MOVES):
        if seat not in session.game.to_act(session.state):
            break
        ended = _pass_move(session, out, seat) if skip else _bot_move(session, out, seat)
        if ended is None:
            break
        if ended:
            return True
    return bot_moves(session, out)


def update_clocks(
    session: GameSession,
    out: list[NewEvent],
    deadlines: list[Deadline],
    acting: int | None,
    *,
    moved_itself: bool,
    command_id: str | None,
    now_ms: int,
) -> None:
    """Append the new TurnClocks after a command, and note the deadlines it sets."""
    if session.clock is None or session.clocks is None:
        return
    waiting: list[int] = []
    if session.phase == "started" and not session.finished:
        waiting = sorted(set(session.game.to_act(session.state)) - session.bots)
    since = session.version + 1
    changed = next_clocks(
        session.clock,
        session.clocks,
        waiting,
        acting,
        moved_itself=moved_itself,
        since=since,
        now_ms=now_ms,
    )
    if changed is None:
        return
    # No command id: the clocks follow the command and the bots' moves after it, and a
    # command's span of versions holds its own events only.
    del command_id
    append_service(session, out, changed, None)
    deadlines += [(seat, since, at) for seat, at in new_deadlines(changed, since)]
