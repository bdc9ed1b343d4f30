"""Replay: a game at any version, from its events alone, with its move list.

The table at version N is the fold of the game's events up to N; what is served of it is a
view (see service.history.disclosure). The move list names, for every command decided by N,
who sent it, when, what it produced (or why it was refused), in a readable line and as data.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import msgspec

from contracts.history import MoveRecord, ReplayFrame
from domain.table.forfeits import forfeited_seats, rank_forfeited_last
from service.history.disclosure import Audience, Disclosure
from service.history.history_errors import VersionOutOfRange
from service.history.record import GameHistory, Step
from service.history.take_backs import take_backs

WITHHELD = "withheld until the game ends"


def received_at(inbox_id: str) -> str:
    """When Redis received a command (its inbox id's time), as ISO 8601 UTC with ms."""
    ms = int(inbox_id.split("-", 1)[0])
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds")


def command_data(step: Step) -> dict[str, Any]:
    """The command as received (its canonical JSON) as plain data."""
    data: dict[str, Any] = msgspec.json.decode(step.received.body)
    return data


def command_text(history: GameHistory, step: Step) -> str:
    """The command as a readable call, e.g. `Move(steps=2)` (its raw JSON if it no longer
    decodes)."""
    try:
        return repr(history.codec.decode_command(step.received.body))
    except (msgspec.DecodeError, msgspec.ValidationError):
        return step.received.body.decode(errors="replace")


def _versions(step: Step) -> str:
    if step.first_version is None:
        return f"at v{step.version_before}"
    if step.first_version == step.last_version:
        return f"v{step.first_version}"
    return f"v{step.first_version}-{step.last_version}"


def move_text(
    history: GameHistory, step: Step, disclosure: Disclosure, taken_back: int | None = None
) -> str:
    """One readable line: versions, seat, command, and what became of it."""
    shown = disclosure.may_see_seat(step.seat)
    what = command_text(history, step) if shown else f"(command {WITHHELD})"
    line = f"{_versions(step)} seat {step.seat}: {what}"
    if taken_back is not None:  # the command took the seat back from its bot first
        line = f"v{taken_back} seat {step.seat} took the seat back from the bot; {line}"
    if step.status == "queued":
        return f"{line} (queued)"
    if step.status == "refused":
        if not shown or step.refusal is None:
            return f"{line} refused"
        return f"{line} refused: {step.refusal.code}: {step.refusal.message}"
    if step.first_version is None or step.last_version is None:
        return f"{line} (no events)"
    events = [
        disclosure.event(event)
        for _, event in history.game_events(step.first_version, step.last_version)
    ]
    visible = [repr(event) for event in events if event is not None]
    if not visible:
        return f"{line} -> (events {WITHHELD})"
    hidden = " (+ events withheld)" if len(visible) < len(events) else ""
    return f"{line} -> {'; '.join(visible)}{hidden}"


def move_record(
    history: GameHistory, step: Step, disclosure: Disclosure, taken_back: int | None = None
) -> MoveRecord:
    """One move as data, with what the audience may not see left out."""
    shown = disclosure.may_see_seat(step.seat)
    events = []
    if step.first_version is not None and step.last_version is not None:
        span = slice(step.first_version - 1, step.last_version)
        events = disclosure.event_records(history.stored[span], history.events[span])
    return MoveRecord(
        seat=step.seat,
        status=step.status,
        received_at=received_at(step.received.inbox_id),
        text=move_text(history, step, disclosure, taken_back),
        command_id=step.command_id,
        first_version=step.first_version,
        last_version=step.last_version,
        command=command_data(step) if shown else None,
        refusal=step.refusal if shown else None,
        events=events,
    )


def move_list(history: GameHistory, disclosure: Disclosure, up_to: int) -> list[MoveRecord]:
    """Every command decided by version `up_to`, in the order decided."""
    taken = {key: v for key, v in take_backs(history).items() if v <= up_to}
    return [
        move_record(history, step, disclosure, taken.get(step.key))
        for step in history.decided_steps(up_to)
    ]


def withheld_notes(history: GameHistory, disclosure: Disclosure) -> list[str]:
    """What the audience is not shown of this game, in words (empty once it is over)."""
    if disclosure.everything:
        return []
    notes = [
        f"other seats' commands, refusal reasons and legal alternatives are {WITHHELD}",
        f"chain values and the seed are {WITHHELD}",
    ]
    notes.append(f"events show only what {disclosure.audience.label} may see")
    return notes


def check_version(history: GameHistory, version: int) -> None:
    """VersionOutOfRange unless the stream holds `version`."""
    if not 1 <= version <= history.last_version:
        raise VersionOutOfRange(version, history.last_version)


def replay_frame(
    history: GameHistory, audience: Audience, at: int | None = None, seat: int | None = None
) -> ReplayFrame:
    """The game at version `at` (its last by default) as `seat`'s view (None: public)."""
    version = history.last_version if at is None else at
    check_version(history, version)
    disclosure = Disclosure(audience, history.game, history.finished)
    disclosure.check_view_seat(seat)
    game = history.game
    state = history.state_at(version)
    return ReplayFrame(
        game_id=history.game_id,
        game=history.created.game,
        rules_version=history.created.rules_version,
        version=version,
        last_version=history.last_version,
        finished=history.finished,
        seat=seat,
        view=disclosure.view(state, seat),
        to_act=list(game.to_act(state)) if state is not None else [],
        outcome=(
            rank_forfeited_last(game.outcome(state), forfeited_seats(history.events[:version]))
            if state is not None
            else None
        ),
        moves=move_list(history, disclosure, version),
        withheld=withheld_notes(history, disclosure),
    )
