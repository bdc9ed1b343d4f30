"""Deciding a batch of commands against a session: events, outcomes and the new head.

Pure apart from the session it advances: nothing here touches storage. The drain commits the
plan in one atomic step and only then trusts the advanced session.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
import structlog

from contracts.stream import SeatResigned, SeatTakenBack, SeedRevealed, TurnClocks
from domain import engine
from domain.errors import IllegalCommand
from service.core.pipeline.lifecycle import (
    SYSTEM_SEAT,
    Resign,
    SystemRefused,
    TimeOut,
    decide_system,
    decode_system,
)
from service.core.pipeline.session import GameSession
from service.core.pipeline.standins import (
    Deadline,
    append,
    append_service,
    bot_moves,
    check_current,
    evolve_all,
    time_out,
    update_clocks,
)
from service.core.ports.records import (
    RECORD_ENCODER,
    CommandRecord,
    Decided,
    NewEvent,
    ReceivedCommand,
)

log = structlog.get_logger("skald.pipeline")


@dataclass
class BatchPlan:
    """What one batch will append, and a summary of it for the log."""

    expected_version: int
    cursor: str
    events: list[NewEvent] = field(default_factory=list)
    decided: list[Decided] = field(default_factory=list)
    finished: bool = False
    # False when the rules crashed half-way through applying events: reload before reuse.
    state_trusted: bool = True
    now_ms: int = 0  # the time the batch's turn clocks start from
    deadlines: list[Deadline] = field(default_factory=list)  # set by this batch: to index
    # (seat, since) of deadlines this batch ended: to unindex once it is committed
    dropped: list[tuple[int, int]] = field(default_factory=list)

    @property
    def version(self) -> int:
        """The stream's version once the plan is committed."""
        return self.expected_version + len(self.events)


def _refusal(
    received: ReceivedCommand, code: str, message: str, details: dict[str, Any] | None = None
) -> CommandRecord:
    return CommandRecord(
        "refused",
        received.seat,
        received.inbox_id,
        code=code,
        message=message,
        details=details or {},
    )


def _details(raw: dict[str, object]) -> dict[str, Any]:
    # Details come from the rules and may hold tuples or Structs: keep what JSON would show.
    converted: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(raw))
    return converted


def plan_batch(
    session: GameSession, commands: list[ReceivedCommand], now_ms: int | None = None
) -> BatchPlan:
    """Decide `commands` in order, advancing `session` by the events of each one accepted
    (turn clocks, in games with them, start at `now_ms`: the wall clock by default)."""
    plan = BatchPlan(session.version, session.cursor)
    plan.now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    clocks_before = session.clocks
    for received in commands:
        record = _decide_contained(session, plan, received)
        plan.decided.append(Decided(received.command_id, record))
        plan.cursor = received.inbox_id
        if not plan.state_trusted:
            break
    plan.finished = session.finished
    session.cursor = plan.cursor
    still = set() if session.finished else _current(session.clocks)
    plan.dropped = sorted((_current(clocks_before) | _set(plan)) - still)
    return plan


def _current(clocks: TurnClocks | None) -> set[tuple[int, int]]:
    return set() if clocks is None else {(e.seat, e.since) for e in clocks.entries}


def _set(plan: BatchPlan) -> set[tuple[int, int]]:
    return {(seat, since) for seat, since, _ in plan.deadlines}


def _decide_contained(
    session: GameSession, plan: BatchPlan, received: ReceivedCommand
) -> CommandRecord:
    """`_decide_one`, with whatever fails on the way turned into a recorded refusal: one
    command never stops its game, nor the round it is decided in."""
    version, head_hash, events_before = session.version, session.head_hash, len(plan.events)
    try:
        record = _decide_one(session, plan, received)
    except Exception:
        log.exception("command_failed", game_id=session.game_id, command_id=received.command_id)
        del plan.events[events_before:]
        plan.state_trusted = False
        session.version, session.head_hash = version, head_hash
        return _refusal(received, "engine.error", "the rules failed on this command")
    if record.status == "refused":
        try:
            RECORD_ENCODER.encode(record)
        except (OverflowError, TypeError, ValueError):
            # Details the rules echoed back that MessagePack cannot hold (an int past 64 bits):
            # the refusal stands, without them.
            log.exception("refusal_unstorable", game_id=session.game_id, code=record.code)
            return _refusal(
                received,
                "command.internal_error",
                f"the command was refused ({record.code}) but its details could not be stored",
            )
    return record


def _decide_one(session: GameSession, plan: BatchPlan, received: ReceivedCommand) -> CommandRecord:
    game = session.game
    if not session.rules_supported:
        return _refusal(
            received,
            "game.rules_version",
            f"this game was created under {game.name} rules version "
            f"{session.meta.rules_version!r}; this service implements version "
            f"{game.rules_version!r} and will not apply commands under other rules",
            {"game_rules": session.meta.rules_version, "service_rules": game.rules_version},
        )
    if session.finished:
        return _refusal(received, "game.finished", "The game is over.")
    if received.seat == SYSTEM_SEAT:
        return _decide_system(session, plan, received)
    if not 0 <= received.seat < session.meta.seats:
        return _refusal(received, "seat.out_of_range", f"no seat {received.seat} in this game")
    expected = received.expected_version
    if expected is not None and session.version > expected:
        # Decided here, not at submit: only the drain knows the version the command meets.
        return _refusal(
            received,
            "command.stale",
            f"the game has moved on: it is at version {session.version}, past the version "
            f"{expected} this command was chosen at",
            {"expected_version": expected, "version": session.version},
        )
    if session.phase == "open":
        return _refusal(
            received,
            "game.not_started",
            "the game has not started: it starts once every seat is taken, or when its "
            "creator starts it with bots in the free seats",
        )
    try:
        command = session.codec.decode_command(received.body)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return _refusal(received, "command.bad_payload", f"bad command: {exc}")
    if received.seat in session.abandoned:
        refused = _take_back(session, plan, received.seat)
        if refused is not None:
            return _refusal(received, "seat.abandoned", refused)
    try:
        events = engine.decide(game, session.state, command, received.seat, session.chance)
    except IllegalCommand as exc:
        return _refusal(received, exc.code, exc.message, _details(exc.details))
    except Exception:
        # A bug in the rules: refuse (recorded, auditable) rather than block the game for ever.
        log.exception("decide_failed", game_id=session.game_id, command_id=received.command_id)
        return _refusal(received, "engine.error", "the rules failed on this command")

    def play() -> bool:
        return evolve_all(session, plan.events, events, received.key)

    return _applied(session, plan, received, play, acting=received.seat, moved_itself=True)


def _take_back(session: GameSession, plan: BatchPlan, seat: int) -> str | None:
    """The player of an abandoned seat takes it back with this command, where the clock
    lets them (`take_back`): SeatTakenBack, then the command is decided as any other (the
    take-back stands if the rules refuse it). Else why it is refused."""
    clock = session.clock
    if clock is None or not clock.take_back:
        return (
            f"seat {seat} missed too many turns in a row: a bot holds it for the rest of the "
            "game (this game's clock does not let a player take an abandoned seat back)"
        )
    # No command id: the take-back follows from the seat's state, whatever the rules then
    # say of the command (a command's span holds its own events only).
    append_service(session, plan.events, SeatTakenBack(seat), None)
    return None


def _decide_system(
    session: GameSession, plan: BatchPlan, received: ReceivedCommand
) -> CommandRecord:
    """The service's own command: start, cancel, or a seat's deadline passing."""
    try:
        command = decode_system(received.body)
        if isinstance(command, TimeOut):
            check_current(session, command)
            timeout = command

            def stand_in() -> bool:
                return time_out(session, plan.events, timeout, received.key)

            return _applied(
                session, plan, received, stand_in, acting=command.seat, moved_itself=False
            )
        if isinstance(command, Resign):
            resigning = command
            if session.phase != "started" or resigning.seat in session.bots:
                raise SystemRefused("seat.cannot_resign", "only a seat played by a player resigns")

            def resign() -> bool:
                event = SeatResigned(resigning.seat)
                append_service(session, plan.events, event, received.key)
                return False

            return _applied(
                session, plan, received, resign, acting=resigning.seat, moved_itself=False
            )
        events, ends = decide_system(session.phase, session.meta.seats, command)
    except SystemRefused as exc:
        return _refusal(received, exc.code, exc.message)
    if ends:
        first = session.version + 1
        for event in events:
            append_service(session, plan.events, event, received.key)
        seed = SeedRevealed(session.seed.hex())
        append(session, plan.events, session.codec.encode_event(seed), None)
        session.finished = True
        return CommandRecord(
            "applied", received.seat, received.inbox_id, first, session.version - 1
        )

    def begin() -> bool:
        for event in events:
            append_service(session, plan.events, event, received.key)
        return False

    return _applied(session, plan, received, begin, acting=None, moved_itself=False)


def _applied(
    session: GameSession,
    plan: BatchPlan,
    received: ReceivedCommand,
    play: Callable[[], bool],
    *,
    acting: int | None,
    moved_itself: bool,
) -> CommandRecord:
    """Play a command's events (`play`: whether they end the game), then the bots' moves that
    follow and the turn clocks, revealing the seed when the game ends; the command's record."""
    first = session.version + 1
    hash_before, events_before = session.head_hash, len(plan.events)
    deadlines_before = len(plan.deadlines)
    try:
        over = play()
        if not over:
            over = bot_moves(session, plan.events)
        if over:
            seed = SeedRevealed(session.seed.hex())
            append(session, plan.events, session.codec.encode_event(seed), None)
        else:
            update_clocks(
                session,
                plan.events,
                plan.deadlines,
                acting,
                moved_itself=moved_itself,
                command_id=received.key,
                now_ms=plan.now_ms,
            )
    except Exception:
        # Evolving, encoding an event (an int MessagePack cannot hold) or scoring failed.
        log.exception("evolve_failed", game_id=session.game_id, command_id=received.command_id)
        # Roll the plan back to before this command; the half-evolved state is discarded.
        del plan.events[events_before:]
        del plan.deadlines[deadlines_before:]
        plan.state_trusted = False
        session.version, session.head_hash = first - 1, hash_before
        return _refusal(received, "engine.error", "the rules failed on this command")
    if over:
        session.finished = True
    # The command's own span: bots' moves after it carry their own ids (audit tells them apart).
    own = [
        i
        for i in range(events_before, len(plan.events))
        if plan.events[i].command_id == received.key
    ]
    if not own:
        return CommandRecord("applied", received.seat, received.inbox_id)
    first_own = plan.expected_version + own[0] + 1
    return CommandRecord(
        "applied", received.seat, received.inbox_id, first_own, plan.expected_version + own[-1] + 1
    )
