"""Messages of replay, audit, fairness and verification game-agnostic.

Game-specific payloads (views, commands, events) travel as nested objects whose schema is the
game's own Structs, as in contracts.api. A field that is None (or absent) while a game is in
progress was withheld from the caller: `withheld` says what and why.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from contracts.api import EventRecord
from contracts.outcome import Outcome

CommandStatus = Literal["queued", "applied", "refused"]


class Refusal(msgspec.Struct, frozen=True, omit_defaults=True):
    """Why the rules (or the service) refused a command: the recorded code, message, details."""

    code: str
    message: str
    details: dict[str, Any] | None = None


class CommandAsReceived(msgspec.Struct, frozen=True, omit_defaults=True):
    """A command as the service received it. `command` is None when withheld from the caller."""

    seat: int
    command_id: str
    received_at: str  # ISO 8601 UTC with milliseconds, by the Redis clock
    request_id: str | None = None
    command: dict[str, Any] | None = None
    expected_version: int | None = None  # the version the command named, if it named one


class MoveRecord(msgspec.Struct, frozen=True, omit_defaults=True):
    """One entry of a move list: who sent what, what became of it, the versions it produced."""

    seat: int
    status: CommandStatus
    received_at: str
    text: str  # a readable one-line summary, e.g. "v7 seat 1: Move(steps=2) -> Moved(...)"
    command_id: str
    first_version: int | None = None
    last_version: int | None = None
    command: dict[str, Any] | None = None
    refusal: Refusal | None = None
    events: list[EventRecord] = msgspec.field(default_factory=list)


class ReplayFrame(msgspec.Struct, frozen=True):
    """A game as it stood at `version`: one seat's view (or the public one) and the moves so far.

    `view` is None at version 1, where the stream holds only GameCreated and no table exists.
    """

    game_id: str
    game: str
    rules_version: str
    version: int
    last_version: int
    finished: bool  # whether the game is over now (not at `version`)
    seat: int | None  # whose view; None is the public view
    view: dict[str, Any] | None
    to_act: list[int]
    outcome: Outcome | None
    moves: list[MoveRecord]
    withheld: list[str] = msgspec.field(default_factory=list)


class ChainCheck(msgspec.Struct, frozen=True, omit_defaults=True):
    """Whether the hash chain holds over versions 1 to `up_to`, and where it breaks if not."""

    up_to: int
    holds: bool
    first_broken_version: int | None = None


class DrawMismatch(msgspec.Struct, frozen=True, omit_defaults=True):
    """The first recorded event the revealed seed does not re-derive."""

    version: int
    reason: str
    expected: dict[str, Any] | None = None  # None: the rules produce no event here
    recorded: dict[str, Any] | None = None  # None: the stream holds no event here


FairnessStatus = Literal["fair", "unfair", "pending"]


class FairnessReport(msgspec.Struct, frozen=True, omit_defaults=True):
    """The seed check: the revealed seed against its commitment, then every draw re-derived.

    "pending" while the game goes on: the seed is revealed only when it ends.
    """

    game_id: str
    status: FairnessStatus
    seed_sha256: str
    detail: str
    seed_hex: str | None = None
    commitment_holds: bool | None = None
    events_rederived: int = 0
    commands_rederived: int = 0
    mismatch: DrawMismatch | None = None


# bot: a bot's move (no inbox); service: an event the service appended after the opening that
# no command's span holds (a seat taken back from its bot, the turn clocks after a move)
AuditSubject = Literal["command", "opening", "seed", "bot", "service"]


class AuditReport(msgspec.Struct, frozen=True, omit_defaults=True):
    """Everything about one move: the command as received, the table before, the legal
    alternatives then, what it produced or why it was refused, and the chain up to it.

    `subject` is "opening" for GameCreated and the setup events (no command caused them),
    "seed" for SeedRevealed, "service" for the service's own events after the opening that no
    command's span holds (`SeatTakenBack`, `TurnClocks`). `fairness` is present once the
    game is over.
    """

    game_id: str
    subject: AuditSubject
    version_before: int
    chain: ChainCheck
    version: int | None = None  # the version asked about, when asked by version
    status: CommandStatus | None = None
    command: CommandAsReceived | None = None
    public_view_before: dict[str, Any] | None = None
    seat_view_before: dict[str, Any] | None = None
    legal_alternatives: list[dict[str, Any]] | None = None
    events: list[EventRecord] = msgspec.field(default_factory=list)
    refusal: Refusal | None = None
    fairness: FairnessReport | None = None
    withheld: list[str] = msgspec.field(default_factory=list)


CheckStatus = Literal["ok", "failed", "skipped"]


class Check(msgspec.Struct, frozen=True, omit_defaults=True):
    """One check of a game's record; `version` names where a failed check broke."""

    name: str
    status: CheckStatus
    detail: str
    version: int | None = None


class GameVerification(msgspec.Struct, frozen=True):
    """Every check of one game; `ok` when none failed."""

    game_id: str
    game: str
    rules_version: str
    version: int
    finished: bool
    ok: bool
    checks: list[Check]
