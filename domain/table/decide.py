"""Deciding one command at a table: the events it records, its outcome, its deadlines.

`decide(table, command, now_ms)` is the whole of the table's rules: the life cycle (start,
cancel), the seats' commands through the game's own engine (`domain.engine.decide`), the bots
that play the seats they hold, a passed deadline's timeout policy (`bot`, `skip`, `forfeit`,
abandoning a seat after too many missed turns, taking it back), resigning, the turn clocks,
and the seed revealed once the game is over. No I/O and no clock: the time is an argument.

The table is advanced in place by the events it decides, each through `evolve` (so folding the
recorded events gives the same table). Bots' moves carry the ids `bot:<seat>:<version>:<bot>`
(`standins`); the service's events around a command carry the command's id, except the turn
clocks, the take-back and the revealed seed (no command's span holds them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from contracts.stream import (
    GameCancelled,
    SeatAbandoned,
    SeatForfeited,
    SeatResigned,
    SeatTakenBack,
    SeedRevealed,
    TableStarted,
    TurnClocks,
    TurnSkipped,
    TurnTimedOut,
)
from contracts.system import CancelGame, Resign, StartGame, TimeOut
from domain import engine
from domain.errors import IllegalCommand
from domain.table import standins
from domain.table.clocks import new_deadlines, next_clocks
from domain.table.standins import bot_command, bot_command_id, pass_command_id
from domain.table.state import Table, evolve
from domain.table.system import SYSTEM_SEAT, SystemRefused

MAX_BOT_MOVES = 10_000  # per command: a game of bots alone still ends, but never loops here
Deadline = tuple[int, int, int]  # (seat, since, deadline ms)


@dataclass(frozen=True)
class Undecodable:
    """A command whose body did not decode (refused once the table gets to it), and why."""

    message: str


@dataclass(frozen=True)
class TableCommand:
    """A command at the table: the seat (`SYSTEM_SEAT` for the service's own), the id its
    events are recorded under (`<seat>:<id>`), the command (the game's, or for the system
    seat one of contracts.system's), and the version it was chosen at."""

    seat: int
    command_id: str
    command: Any
    expected_version: int | None = None


@dataclass(frozen=True)
class Recorded:
    """An event to record, and the command id it is recorded under (None: the service's)."""

    event: Any
    command_id: str | None


@dataclass(frozen=True)
class Applied:
    """The command applied: the versions of its own events (None when it recorded none)."""

    first: int | None = None
    last: int | None = None


@dataclass(frozen=True)
class Refused:
    """The command refused, with a stable code and the details a client may act on."""

    code: str
    message: str
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class Decision:
    """What one command came to.

    `standing`: how many of `events` stand whatever becomes of the rest (a take-back, recorded
    before its command): a caller that cannot record the rest keeps those and refuses the
    command. `trusted` is False when the rules failed half-way: the table holds part of the
    failed command's events and must be folded again. `failure` names where they failed (for
    the log), `error` is what was raised."""

    events: list[Recorded]
    outcome: Applied | Refused
    deadlines: list[Deadline] = field(default_factory=list)  # set by this command
    dropped: list[tuple[int, int]] = field(default_factory=list)  # (seat, since) it ended
    finished: bool = False
    trusted: bool = True
    standing: int = 0
    failure: str = ""
    error: Exception | None = None


ENGINE_ERROR = "engine.error"
RULES_FAILED = "the rules failed on this command"


class _Turn:
    """One command's decision under way: the events recorded so far, following each one."""

    def __init__(self, table: Table, command: TableCommand, now_ms: int) -> None:
        self.table = table
        self.command = command
        self.now_ms = now_ms
        self.start = table.version
        self.events: list[Recorded] = []
        self.deadlines: list[Deadline] = []

    def record(self, event: Any, command_id: str | None) -> None:
        evolve(self.table, event)
        self.events.append(Recorded(event, command_id))

    def play(self, events: list[Any], command_id: str) -> bool:
        """Record one command's game events; whether they end the game."""
        for event in events:
            self.record(event, command_id)
        return bool(events) and self.table.game.outcome(self.table.state) is not None


def decide(table: Table, command: TableCommand, now_ms: int) -> Decision:
    """Decide `command` at `now_ms` (the turn clocks start from it), advancing `table` by the
    events decided."""
    before = _held(table)
    turn = _Turn(table, command, now_ms)
    try:
        decision = _decide(turn)
    except Exception as exc:
        decision = Decision([], Refused(ENGINE_ERROR, RULES_FAILED), trusted=False)
        decision.failure, decision.error = "command_failed", exc
    if not decision.trusted:
        table.version = turn.start + decision.standing
        decision.events = decision.events[: decision.standing]
        return decision
    decision.finished = table.finished
    still = set() if table.finished else _held(table)
    set_now = {(seat, since) for seat, since, _ in decision.deadlines}
    decision.dropped = sorted((before | set_now) - still)
    return decision


def _held(table: Table) -> set[tuple[int, int]]:
    clocks = table.clocks
    return set() if clocks is None else {(e.seat, e.since) for e in clocks.entries}


def _refused(
    turn: _Turn, code: str, message: str, details: dict[str, Any] | None = None
) -> Decision:
    return Decision(turn.events, Refused(code, message, details or {}), standing=len(turn.events))


def _decide(turn: _Turn) -> Decision:
    table, command = turn.table, turn.command
    game = table.game
    if not table.rules_supported:
        return _refused(
            turn,
            "game.rules_version",
            f"this game was created under {game.name} rules version "
            f"{table.rules_version!r}; this service implements version "
            f"{game.rules_version!r} and will not apply commands under other rules",
            {"game_rules": table.rules_version, "service_rules": game.rules_version},
        )
    if table.finished:
        return _refused(turn, "game.finished", "The game is over.")
    if command.seat == SYSTEM_SEAT:
        try:
            return _decide_system(turn)
        except SystemRefused as exc:
            return _refused(turn, exc.code, exc.message)
    if not 0 <= command.seat < table.seats:
        return _refused(turn, "seat.out_of_range", f"no seat {command.seat} in this game")
    expected = command.expected_version
    if expected is not None and table.version > expected:
        # Decided here, not at submit: only the decision knows the version a command meets.
        return _refused(
            turn,
            "command.stale",
            f"the game has moved on: it is at version {table.version}, past the version "
            f"{expected} this command was chosen at",
            {"expected_version": expected, "version": table.version},
        )
    if table.phase == "open":
        return _refused(
            turn,
            "game.not_started",
            "the game has not started: it starts once every seat is taken, or when its "
            "creator starts it with bots in the free seats",
        )
    move = command.command
    if isinstance(move, Undecodable):
        return _refused(turn, "command.bad_payload", move.message)
    if command.seat in table.abandoned:
        refused = _take_back(turn, command.seat)
        if refused is not None:
            return _refused(turn, "seat.abandoned", refused)
    try:
        events = engine.decide(game, table.state, move, command.seat, table.chance)
    except IllegalCommand as exc:
        return _refused(turn, exc.code, exc.message, dict(exc.details))
    except Exception as exc:
        # A bug in the rules: refuse (recorded, auditable) rather than block the game for ever.
        failed = _refused(turn, ENGINE_ERROR, RULES_FAILED)
        failed.failure, failed.error = "decide_failed", exc
        return failed
    return _applied(
        turn, lambda: turn.play(events, command.command_id), acting=command.seat, moved_itself=True
    )


def _take_back(turn: _Turn, seat: int) -> str | None:
    """The player of an abandoned seat takes it back with this command, where the clock
    lets them (`take_back`): SeatTakenBack, then the command is decided as any other (the
    take-back stands if the rules refuse it). Else why it is refused."""
    clock = turn.table.clock
    if clock is None or not clock.take_back:
        return (
            f"seat {seat} missed too many turns in a row: a bot holds it for the rest of the "
            "game (this game's clock does not let a player take an abandoned seat back)"
        )
    # No command id: the take-back follows from the seat's state, whatever the rules then
    # say of the command (a command's span holds its own events only).
    turn.record(SeatTakenBack(seat), None)
    return None


def _decide_system(turn: _Turn) -> Decision:
    """The service's own command: start, cancel, resign, or a seat's deadline passing."""
    table, key = turn.table, turn.command.command_id
    command = turn.command.command
    if isinstance(command, Undecodable):
        raise SystemRefused("system.bad_command", command.message)
    if isinstance(command, TimeOut):
        _check_current(table, command)
        timeout = command
        return _applied(
            turn, lambda: _time_out(turn, timeout), acting=timeout.seat, moved_itself=False
        )
    if isinstance(command, Resign):
        seat = command.seat
        if table.phase != "started" or seat in table.bots:
            raise SystemRefused("seat.cannot_resign", "only a seat played by a player resigns")

        def resign() -> bool:
            turn.record(SeatResigned(seat), key)
            return False

        return _applied(turn, resign, acting=seat, moved_itself=False)
    if table.phase != "open":
        raise SystemRefused(
            "game.already_started" if table.phase == "started" else "game.cancelled",
            f"the game is {table.phase}: it can no longer be started or cancelled",
        )
    if isinstance(command, CancelGame):
        first = table.version + 1
        turn.record(GameCancelled(command.by, command.reason), key)
        turn.record(SeedRevealed(table.seed.hex()), None)
        return Decision(turn.events, Applied(first, first))
    start = _start(table, command)

    def begin() -> bool:
        turn.record(start, key)
        return False

    return _applied(turn, begin, acting=None, moved_itself=False)


def _start(table: Table, command: StartGame) -> TableStarted:
    bots = sorted(set(command.bots))
    if any(not 0 <= seat < table.seats for seat in bots):
        raise SystemRefused("seat.out_of_range", f"bot seats {bots} outside the game")
    return TableStarted(bots)


def _applied(
    turn: _Turn, play: Callable[[], bool], *, acting: int | None, moved_itself: bool
) -> Decision:
    """Play a command's events (`play`: whether they end the game), then the bots' moves that
    follow and the turn clocks, revealing the seed when the game ends."""
    table = turn.table
    standing = len(turn.events)
    try:
        over = play()
        if not over:
            over = _bot_moves(turn)
        if over:
            turn.record(SeedRevealed(table.seed.hex()), None)
        else:
            _update_clocks(turn, acting, moved_itself=moved_itself)
    except Exception as exc:
        # Evolving or scoring failed: the half-evolved table is to be discarded.
        failed = Decision(turn.events, Refused(ENGINE_ERROR, RULES_FAILED), trusted=False)
        failed.standing, failed.failure, failed.error = standing, "evolve_failed", exc
        return failed
    # The command's own span: bots' moves after it carry their own ids (audit tells them apart).
    key = turn.command.command_id
    own = [i for i, recorded in enumerate(turn.events) if recorded.command_id == key]
    if not own:
        return Decision(turn.events, Applied(), turn.deadlines)
    return Decision(
        turn.events, Applied(turn.start + own[0] + 1, turn.start + own[-1] + 1), turn.deadlines
    )


def _bot_move(turn: _Turn, seat: int) -> bool | None:
    """One bot move for `seat`: whether it ended the game, None when it had nothing to do."""
    table = turn.table
    game = table.game
    kind = standins.STANDIN_BOT  # read now: a test plays the bots of an earlier release
    move = bot_command(game, table.state, seat, table.seed, table.version, kind)
    if move is None:
        return None
    events = engine.decide(game, table.state, move, seat, table.chance)
    if not events:
        return None
    return turn.play(events, bot_command_id(seat, table.version, kind))


def _bot_moves(turn: _Turn) -> bool:
    """Play the bots' seats while the game waits for them; whether the game ended."""
    table = turn.table
    for _ in range(MAX_BOT_MOVES):
        if not table.bots or table.phase != "started":
            return False
        waiting = sorted(set(table.game.to_act(table.state)) & table.bots)
        if not waiting:
            return False
        ended = _bot_move(turn, waiting[0])
        if ended is None:
            return False
        if ended:
            return True
    return False


def _check_current(table: Table, timeout: TimeOut) -> None:
    """SystemRefused unless the timeout names a deadline the game still waits on."""
    clocks = table.clocks
    entry = None
    if clocks is not None and table.phase == "started":
        entry = next((e for e in clocks.entries if e.seat == timeout.seat), None)
    if entry is None or entry.since != timeout.since:
        raise SystemRefused(
            "timer.stale",
            "this deadline is no longer current: the seat moved before it was acted on",
        )


def _pass_move(turn: _Turn, seat: int) -> bool | None:
    """The seat passes its current decision, or (where it has no passing choice) the bot
    makes that one decision: whether it ended the game, None when nothing was played."""
    table = turn.table
    game = table.game
    move = game.pass_command(table.state, seat)
    if move is None:
        return _bot_move(turn, seat)
    events = engine.decide(game, table.state, move, seat, table.chance)
    if not events:
        return None
    return turn.play(events, pass_command_id(seat, table.version))


def _time_out(turn: _Turn, timeout: TimeOut) -> bool:
    """A current deadline passed (`_check_current`): record it, then the clock's policy acts
    (`on_timeout`): a bot plays the seat's turn (`bot`), the seat passes it (`skip`), or the
    seat is out and a bot holds it (`forfeit`); after too many missed turns in a row the seat
    is abandoned to a bot. Whether the game ended."""
    table, key = turn.table, turn.command.command_id
    clocks, clock = table.clocks, table.clock
    assert clocks is not None and clock is not None
    seat = timeout.seat
    missed = clocks.missed[seat] + 1
    turn.record(TurnTimedOut(seat, missed), key)
    if clock.on_timeout == "forfeit" and seat not in table.bots:
        turn.record(SeatForfeited(seat), key)
    elif missed >= clock.abandon_after and seat not in table.bots:
        turn.record(SeatAbandoned(seat), key)
    skip = clock.on_timeout == "skip" and seat not in table.bots
    if skip:
        turn.record(TurnSkipped(seat), key)
    for _ in range(MAX_BOT_MOVES):
        if seat not in table.game.to_act(table.state):
            break
        ended = _pass_move(turn, seat) if skip else _bot_move(turn, seat)
        if ended is None:
            break
        if ended:
            return True
    return _bot_moves(turn)


def _update_clocks(turn: _Turn, acting: int | None, *, moved_itself: bool) -> None:
    """Record the new TurnClocks after a command, and note the deadlines it sets."""
    table = turn.table
    if table.clock is None or table.clocks is None:
        return
    waiting: list[int] = []
    if table.phase == "started" and not table.finished:
        waiting = sorted(set(table.game.to_act(table.state)) - table.bots)
    since = table.version + 1
    changed: TurnClocks | None = next_clocks(
        table.clock,
        table.clocks,
        waiting,
        acting,
        moved_itself=moved_itself,
        since=since,
        now_ms=turn.now_ms,
    )
    if changed is None:
        return
    # No command id: the clocks follow the command and the bots' moves after it, and a
    # command's span of versions holds its own events only.
    turn.record(changed, None)
    turn.deadlines += [(seat, since, at) for seat, at in new_deadlines(changed, since)]
