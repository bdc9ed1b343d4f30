"""Deciding a batch of commands against a session: events, outcomes and the new head.

Pure apart from the session it advances: nothing here touches storage. The drain commits the
plan in one atomic step and only then trusts the advanced session.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import msgspec
import structlog

from contracts.stream import SeedRevealed
from domain import engine
from domain.bots import RandomBot
from domain.errors import IllegalCommand
from service.adapters.store.records import (
    RECORD_ENCODER,
    CommandRecord,
    Decided,
    NewEvent,
    ReceivedCommand,
)
from service.core.pipeline.chain import link
from service.core.pipeline.lifecycle import SYSTEM_SEAT, SystemRefused, decide_system
from service.core.pipeline.session import GameSession

log = structlog.get_logger("skald.pipeline")
MAX_BOT_MOVES = 10_000  # per command: a game of bots alone still ends, but never loops here


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


def plan_batch(session: GameSession, commands: list[ReceivedCommand]) -> BatchPlan:
    """Decide `commands` in order, advancing `session` by the events of each one accepted."""
    plan = BatchPlan(session.version, session.cursor)
    for received in commands:
        record = _decide_contained(session, plan, received)
        plan.decided.append(Decided(received.command_id, record))
        plan.cursor = received.inbox_id
        if not plan.state_trusted:
            break
    plan.finished = session.finished
    session.cursor = plan.cursor
    return plan


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
    try:
        events = engine.decide(game, session.state, command, received.seat, session.chance)
    except IllegalCommand as exc:
        return _refusal(received, exc.code, exc.message, _details(exc.details))
    except Exception:
        # A bug in the rules: refuse (recorded, auditable) rather than block the game for ever.
        log.exception("decide_failed", game_id=session.game_id, command_id=received.command_id)
        return _refusal(received, "engine.error", "the rules failed on this command")
    return _applied(session, plan, received, events, then_bots=True)


def _decide_system(
    session: GameSession, plan: BatchPlan, received: ReceivedCommand
) -> CommandRecord:
    """The service's own command (start, cancel): life-cycle events, then the bots' turns."""
    try:
        events, ends = decide_system(session.phase, session.meta.seats, received.body)
    except SystemRefused as exc:
        return _refusal(received, exc.code, exc.message)
    first = session.version + 1
    for event in events:
        session.follow_lifecycle(event)
        _append(session, plan, session.codec.encode_event(event), received.command_id)
    if ends:
        _append(session, plan, session.codec.encode_event(SeedRevealed(session.seed.hex())), None)
        session.finished = True
        return CommandRecord(
            "applied", received.seat, received.inbox_id, first, session.version - 1
        )
    return _applied(session, plan, received, [], then_bots=True, first=first)


def _applied(
    session: GameSession,
    plan: BatchPlan,
    received: ReceivedCommand,
    events: list[Any],
    *,
    then_bots: bool,
    first: int | None = None,
) -> CommandRecord:
    """Evolve and append a command's events (then the bots' moves that follow), revealing the
    seed when the game ends; the command's record."""
    first = session.version + 1 if first is None else first
    hash_before, events_before = session.head_hash, len(plan.events)
    try:
        over = _evolve(session, plan, events, received.command_id)
        if then_bots and not over:
            over = _bot_moves(session, plan)
        if over:
            seed = SeedRevealed(session.seed.hex())
            _append(session, plan, session.codec.encode_event(seed), None)
    except Exception:
        # Evolving, encoding an event (an int MessagePack cannot hold) or scoring failed.
        log.exception("evolve_failed", game_id=session.game_id, command_id=received.command_id)
        # Roll the plan back to before this command; the half-evolved state is discarded.
        del plan.events[events_before:]
        plan.state_trusted = False
        session.version, session.head_hash = first - 1, hash_before
        return _refusal(received, "engine.error", "the rules failed on this command")
    if over:
        session.finished = True
        return CommandRecord(
            "applied", received.seat, received.inbox_id, first, session.version - 1
        )
    if session.version < first:
        return CommandRecord("applied", received.seat, received.inbox_id)
    return CommandRecord("applied", received.seat, received.inbox_id, first, session.version)


def _evolve(session: GameSession, plan: BatchPlan, events: list[Any], command_id: str) -> bool:
    """Fold and append one command's events; whether they end the game."""
    game = session.game
    for event in events:
        session.state = game.evolve(session.state, event)
        _append(session, plan, session.codec.encode_event(event), command_id)
    return bool(events) and game.outcome(session.state) is not None


def bot_command_id(seat: int, version: int) -> str:
    """The command id of a bot's move: `bot:` and a colon, which no client id may hold, so
    audit tells a bot's move from a player's."""
    return f"bot:{seat}:{version}"


def _bot_moves(session: GameSession, plan: BatchPlan) -> bool:
    """Play the bots' seats while the game waits for them; whether the game ended."""
    game = session.game
    for _ in range(MAX_BOT_MOVES):
        if not session.bots or session.phase != "started":
            return False
        waiting = sorted(set(game.to_act(session.state)) & session.bots)
        if not waiting:
            return False
        seat = waiting[0]
        # Seeded by the game's seed and the version: a replay draws the same moves.
        draw = hashlib.sha256(session.seed + b"bot" + session.version.to_bytes(8, "big"))
        command = RandomBot(draw.digest()).choose(game, session.state, seat)
        if command is None:
            return False
        events = engine.decide(game, session.state, command, seat, session.chance)
        if _evolve(session, plan, events, bot_command_id(seat, session.version)):
            return True
        if not events:
            return False
    return False


def _append(session: GameSession, plan: BatchPlan, data: bytes, command_id: str | None) -> None:
    session.head_hash = link(session.head_hash, data)
    session.version += 1
    plan.events.append(NewEvent(data, session.head_hash, command_id))
