"""What the store keeps about a game, as msgspec Structs (the storage layer's own types).

Versions count every event of a stream from 1 (GameCreated); version 0 is an empty stream.
Inbox ids are Redis stream ids (`<ms>-<seq>`): they order commands and record when each one
was received, by the Redis clock. `NO_INBOX_ID` ("0-0") is the cursor before any command.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import msgspec

from service.core.ports.command_keys import command_key

NO_INBOX_ID = "0-0"

CommandStatus = Literal["queued", "applied", "refused"]


class GameMeta(msgspec.Struct, frozen=True):
    """The fixed facts of a game, written once at creation."""

    game: str
    rules_version: str
    seats: int
    created_at: str  # ISO 8601, UTC


class Head(msgspec.Struct, frozen=True):
    """Where a game's stream stands: its version, chain value, inbox cursor, and whether over."""

    version: int
    hash: bytes  # the hash chain's value after `version` (raw 32 bytes)
    cursor: str  # inbox id of the last command processed, NO_INBOX_ID before the first
    finished: bool


class NewEvent(msgspec.Struct, frozen=True):
    """An event to append: its encoded bytes, its chain value, and the command that caused it."""

    data: bytes
    hash: bytes
    command_id: str | None = None


class StoredEvent(msgspec.Struct, frozen=True):
    """An event read back from a stream."""

    version: int
    data: bytes
    hash: bytes
    command_id: str | None = None


class ReceivedCommand(msgspec.Struct, frozen=True):
    """A command as received, kept for ever in the game's inbox (audit reads it)."""

    seat: int
    command_id: str
    request_id: str
    body: bytes  # canonical JSON of the decoded command
    inbox_id: str = ""  # set by the store when appended
    # Refused `command.stale` when the game is past this version as it is decided.
    expected_version: int | None = None

    @property
    def key(self) -> str:
        """The command's key in its game (`<seat>:<id>`, see `command_keys`)."""
        return command_key(self.seat, self.command_id)

    @property
    def received_ms(self) -> int:
        """When Redis received the command, in ms since the epoch (the inbox id's time)."""
        return int(self.inbox_id.split("-", 1)[0])


class RoundRequest(msgspec.Struct, frozen=True):
    """A game a drain round wants to open, and the version of the state the worker has of it:
    -1 when it needs no events, 0 when it has nothing (a cold start: send every event, the
    game's meta and its seed), n to get the events after version n."""

    game_id: str
    known_version: int = -1


class GameRound(msgspec.Struct, frozen=True):
    """A game's lease round, opened by a drain round: the lease taken, the head under it, the
    commands waiting past it, and what the request asked for: the events after its known
    version, and on a cold start the game's meta and seed."""

    lease: int
    head: Head
    commands: list[ReceivedCommand]
    events: list[StoredEvent] = msgspec.field(default_factory=list)
    meta: GameMeta | None = None
    seed: bytes | None = None


class CommandRecord(msgspec.Struct, frozen=True, array_like=True):
    """What became of a command; array-like to keep the stored form small."""

    status: CommandStatus
    seat: int
    inbox_id: str
    first_version: int | None = None
    last_version: int | None = None
    code: str | None = None
    message: str | None = None
    details: dict[str, Any] | None = None


class Decided(msgspec.Struct, frozen=True):
    """A command's final record, written by a batch."""

    command_id: str
    record: CommandRecord

    @property
    def key(self) -> str:
        """The command's key in its game (`<seat>:<id>`, see `command_keys`)."""
        return command_key(self.record.seat, self.command_id)


class Batch(msgspec.Struct, frozen=True):
    """One atomic append: events, the outcomes of the commands processed, the new cursor."""

    lease: int  # fencing token of the worker's lease on the game
    expected_version: int
    cursor: str
    head_hash: bytes  # the chain value after the last event (the old one when no events)
    events: list[NewEvent]
    decided: list[Decided]
    finished: bool = False
    lease_ttl_ms: int = 30_000  # a successful commit renews the lease for this long
    # Projections at the new version, written in the same step: a client that sees its
    # command applied also sees the views that include it.
    views: dict[str, bytes] = msgspec.field(default_factory=dict)


class Committed(msgspec.Struct, frozen=True):
    """A batch appended and its lease given back; `put_back` when commands still wait."""

    head: Head
    put_back: bool


class Accepted(msgspec.Struct, frozen=True):
    """A submitted command reached the inbox; `start_runner` says the caller must enqueue
    the drain runner whose job id it passed (the slot is already taken for it)."""

    inbox_id: str
    start_runner: bool


class Duplicate(msgspec.Struct, frozen=True):
    """The command id was seen before: the command as first received and its record."""

    received: ReceivedCommand
    record: CommandRecord


class Throttled(msgspec.Struct, frozen=True):
    """The seat sent too many commands; try again after `retry_after_ms`."""

    retry_after_ms: int


SubmitResult = Accepted | Duplicate | Throttled

RECORD_ENCODER = msgspec.msgpack.Encoder()
RECORD_DECODER = msgspec.msgpack.Decoder(CommandRecord)


class RunnerLimits(msgspec.Struct, frozen=True):
    """How many drain runners may be scheduled at once, and how long a runner's slot lasts
    without being renewed (a runner renews it each time it takes a game)."""

    max_runners: int = 4
    slot_ttl_ms: int = 10_000
    drain_shards: int = 16  # on a Redis Cluster (drain_shards.py)


# Game ids are generated by the service (URL-safe base64); anything else cannot exist, and a
# brace would break the hash tag.
GAME_ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def is_game_id(text: str) -> bool:
    """Whether `text` has the form of a game id."""
    return GAME_ID_PATTERN.fullmatch(text) is not None
