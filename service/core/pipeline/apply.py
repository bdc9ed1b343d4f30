"""A batch of commands decided against a session: the table engine (domain.table) decides
each command; here its events are encoded and chained into the batch to commit.

Nothing here touches storage. The drain commits the plan in one atomic step and only then
trusts the advanced session.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import msgspec
import structlog

from domain.table import (
    SYSTEM_SEAT,
    Applied,
    Deadline,
    Decision,
    Recorded,
    Refused,
    TableCommand,
    Undecodable,
    decide,
)
from service.core.codec import GameCodec
from service.core.pipeline.chain import links
from service.core.pipeline.lifecycle import decode_system
from service.core.pipeline.session import GameSession
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


def plan_batch(
    session: GameSession, commands: list[ReceivedCommand], now_ms: int | None = None
) -> BatchPlan:
    """Decide `commands` in order, advancing `session` by the events of each one accepted
    (turn clocks, in games with them, start at `now_ms`: the wall clock by default)."""
    table, codec = session.table, session.codec
    plan = BatchPlan(table.version, session.cursor)
    plan.now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    dropped: set[tuple[int, int]] = set()
    for received in commands:
        command = TableCommand(
            received.seat, received.key, _decoded(codec, received), received.expected_version
        )
        decision = decide(table, command, plan.now_ms)
        record = _record(session, codec, plan, received, decision)
        plan.decided.append(Decided(received.command_id, record))
        plan.cursor = received.inbox_id
        dropped.update(decision.dropped)
        if not plan.state_trusted:
            break
    plan.finished = table.finished
    session.cursor = plan.cursor
    plan.dropped = sorted(dropped)
    return plan


def _decoded(codec: GameCodec, received: ReceivedCommand) -> object:
    """The command a body holds (the game's, or the service's own), or why it does not."""
    if received.seat == SYSTEM_SEAT:
        return decode_system(received.body)
    try:
        return codec.decode_command(received.body)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return Undecodable(f"bad command: {exc}")


def _details(raw: dict[str, object]) -> dict[str, Any]:
    # Details come from the rules and may hold tuples or Structs: keep what JSON would show.
    converted: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(raw))
    return converted


def _record(
    session: GameSession,
    codec: GameCodec,
    plan: BatchPlan,
    received: ReceivedCommand,
    decision: Decision,
) -> CommandRecord:
    """Chain the decision's events onto the plan, and the command's record."""
    if decision.error is not None:
        log.error(
            decision.failure,
            game_id=session.game_id,
            command_id=received.command_id,
            exc_info=decision.error,
        )
    outcome = decision.outcome
    details: dict[str, Any] = {}
    if isinstance(outcome, Refused):
        try:
            details = _details(outcome.details)
        except Exception:
            log.exception("command_failed", game_id=session.game_id, command_id=received.command_id)
            return _failed(session, plan, received)
    if not _chain(session, codec, plan, received, decision):
        return _failed(session, plan, received)
    if not decision.trusted:
        plan.state_trusted = False
    plan.deadlines += decision.deadlines
    if isinstance(outcome, Applied):
        return CommandRecord(
            "applied", received.seat, received.inbox_id, outcome.first, outcome.last
        )
    record = _refusal(received, outcome.code, outcome.message, details)
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


def _chain(
    session: GameSession,
    codec: GameCodec,
    plan: BatchPlan,
    received: ReceivedCommand,
    decision: Decision,
) -> bool:
    """Encode and chain the decision's events onto the plan; False when one cannot be encoded
    (an int MessagePack cannot hold): then only those that stand whatever becomes of the rest
    (a take-back) are, and the command fails like the rules failing."""
    encode, events = codec.encode_event, decision.events
    try:
        datas = [encode(recorded.event) for recorded in events]
    except Exception:
        log.exception("evolve_failed", game_id=session.game_id, command_id=received.command_id)
        datas = [encode(recorded.event) for recorded in events[: decision.standing]]
        _append(session, plan, events, datas)
        return False
    _append(session, plan, events, datas)
    return True


def _failed(session: GameSession, plan: BatchPlan, received: ReceivedCommand) -> CommandRecord:
    """The command refused as the rules failing on it: the half-evolved table is dropped."""
    plan.state_trusted = False
    session.table.finished = False  # it was not before the command
    session.table.version = plan.expected_version + len(plan.events)
    return _refusal(received, "engine.error", "the rules failed on this command")


def _append(
    session: GameSession, plan: BatchPlan, events: list[Recorded], datas: list[bytes]
) -> None:
    """Chain encoded events onto the plan; the session's head moves to the last."""
    hashes = links(session.head_hash, datas)
    commands = [recorded.command_id for recorded in events]
    plan.events += map(NewEvent, datas, hashes, commands)
    if hashes:
        session.head_hash = hashes[-1]


def _refusal(
    received: ReceivedCommand, code: str, message: str, details: dict[str, object] | None = None
) -> CommandRecord:
    return CommandRecord(
        "refused",
        received.seat,
        received.inbox_id,
        code=code,
        message=message,
        details=details or {},
    )
