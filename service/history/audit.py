"""Audit: everything about one move, to settle a dispute ("I never placed that tile").

By version (the command whose events include it, or the opening or the seed) or by command id
(any command ever received: applied, refused, or still queued): the command as received, the
table before it as views, the legal alternatives then, the events it produced or the reason it
was refused, whether the hash chain holds up to it, and once the game is over the seed check.
What a seat or spectator is shown of a game in progress follows service.history.disclosure.
"""

from __future__ import annotations

from contracts.history import AuditReport, AuditSubject, ChainCheck, CommandAsReceived
from contracts.stream import BOT_ID_PREFIX, SeedRevealed
from service.core.pipeline.chain import first_broken_link
from service.history.disclosure import Audience, Disclosure, plain
from service.history.fairness import fairness_report
from service.history.history_errors import (
    AmbiguousCommand,
    CommandNotFound,
    CorruptHistory,
    VersionNotFound,
)
from service.history.record import GameHistory, Step
from service.history.replay import command_data, received_at, withheld_notes


def chain_check(history: GameHistory, up_to: int) -> ChainCheck:
    """Whether the hash chain holds over versions 1 to `up_to`."""
    broken = first_broken_link(history.game_id, history.stored[:up_to])
    return ChainCheck(up_to=up_to, holds=broken is None, first_broken_version=broken)


def audit_version(history: GameHistory, version: int, audience: Audience) -> AuditReport:
    """The audit of the move that produced `version` (or of the opening, or the seed)."""
    if not 1 <= version <= history.last_version:
        raise VersionNotFound(version, history.last_version)
    step = history.step_at(version)
    if step is not None:
        return audit_step(history, step, audience, version)
    event = history.event(version)
    command_id = history.stored[version - 1].command_id
    if command_id is not None and command_id.startswith(BOT_ID_PREFIX):
        return _audit_event(history, version, "bot", audience)  # a bot's move: no inbox entry
    if command_id is not None and not isinstance(event, SeedRevealed):
        raise CorruptHistory(
            history.game_id, version, f"its command {command_id!r} is not in the game's inbox"
        )
    subject: AuditSubject = "seed" if isinstance(event, SeedRevealed) else "opening"
    if subject == "opening" and version > _opening_end(history):
        subject = "service"  # e.g. a seat taken back, the turn clocks after a move
    return _audit_event(history, version, subject, audience)


def _opening_end(history: GameHistory) -> int:
    """The last version of the opening: every event before the first command's."""
    firsts = [step.first_version for step in history.steps if step.first_version is not None]
    return min(firsts, default=history.last_version + 1) - 1


def audit_command(
    history: GameHistory, seat: int | None, command_id: str, audience: Audience
) -> AuditReport:
    """The audit of a seat's command by its id, whatever became of it. Command ids are per
    seat; with no seat named, the one command of that id (AmbiguousCommand when several seats
    sent it). The move list is public, so naming a command reveals nothing more."""
    if seat is not None:
        step = history.step_of(seat, command_id)
    else:
        named = history.steps_named(command_id)
        if len(named) > 1:
            raise AmbiguousCommand(command_id, [step.seat for step in named])
        step = named[0] if named else None
    if step is None:
        raise CommandNotFound(command_id)
    return audit_step(history, step, audience, None)


def _audit_event(
    history: GameHistory, version: int, subject: AuditSubject, audience: Audience
) -> AuditReport:
    disclosure = Disclosure(audience, history.game, history.finished)
    before = version - 1
    state = history.state_at(before)
    events = disclosure.event_records(
        history.stored[version - 1 : version], history.events[version - 1 : version]
    )
    return AuditReport(
        game_id=history.game_id,
        subject=subject,
        version=version,
        version_before=before,
        chain=chain_check(history, version),
        public_view_before=disclosure.view(state, None),
        events=events,
        fairness=fairness_report(history) if history.finished else None,
        withheld=withheld_notes(history, disclosure),
    )


def audit_step(
    history: GameHistory, step: Step, audience: Audience, version: int | None
) -> AuditReport:
    """The audit of one received command."""
    disclosure = Disclosure(audience, history.game, history.finished)
    shown = disclosure.may_see_seat(step.seat)
    state = history.state_at(step.version_before)
    events = []
    up_to = step.version_before
    if step.first_version is not None and step.last_version is not None:
        span = slice(step.first_version - 1, step.last_version)
        events = disclosure.event_records(history.stored[span], history.events[span])
        up_to = step.last_version
    legal = None
    if shown and state is not None:
        legal = plain(history.game.legal_commands(state, step.seat))
    withheld = withheld_notes(history, disclosure)
    if not shown:
        withheld.insert(
            0,
            f"seat {step.seat}'s command, request id, refusal reason, view and legal "
            "alternatives are for that seat alone until the game ends",
        )
    return AuditReport(
        game_id=history.game_id,
        subject="command",
        version=version,
        version_before=step.version_before,
        chain=chain_check(history, up_to),
        status=step.status,
        command=CommandAsReceived(
            seat=step.seat,
            command_id=step.command_id,
            received_at=received_at(step.received.inbox_id),
            request_id=step.received.request_id if shown else None,
            command=command_data(step) if shown else None,
            expected_version=step.received.expected_version if shown else None,
        ),
        public_view_before=disclosure.view(state, None),
        seat_view_before=disclosure.view(state, step.seat) if shown else None,
        legal_alternatives=legal,
        events=events,
        refusal=step.refusal if shown else None,
        fairness=fairness_report(history) if history.finished else None,
        withheld=withheld,
    )
