"""Messages of the HTTP API (JSON, or MessagePack on request), game-agnostic.

Game-specific payloads (config, command, view, event) travel as nested JSON objects whose
schema is the game's own Structs in `contracts/games/<name>.py`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from contracts.outcome import Outcome
from contracts.stream import Clock


class Request(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """Base of request bodies: unknown fields are refused."""


class CreateGameRequest(Request, frozen=True):
    """Create a game: which game, and its options (`players` plus the game's own fields).

    `seed_hex` (64 hex digits) fixes the game's secret seed, for reproducible demos and tests.
    Only a server started with SKALD_ALLOW_CHOSEN_SEEDS accepts it: in production every seed
    is drawn by the server, or the players could choose their own luck.
    `clock` gives the game a turn timer (a clock per move, optionally a total clock).
    `rated: false` keeps the game's result out of its players' ratings (docs/ratings.md).
    """

    game: str
    config: dict[str, Any]
    seed_hex: str | None = None
    clock: Clock | None = None
    # A literal, not `bool`: the API converts bodies leniently, and would take 0 for false.
    rated: Literal[True, False] = True


class GameCreated(msgspec.Struct, frozen=True):
    """A new game, open for players to join its seats."""

    game_id: str
    game: str
    rules_version: str
    seats: int
    seed_sha256: str


class JoinRequest(Request, frozen=True):
    """Take a seat: a given one, or the lowest free seat when `seat` is omitted."""

    name: str = msgspec.field(default="")
    seat: int | None = None


class SeatJoined(msgspec.Struct, frozen=True):
    """The seat taken and its token: the only time the token is ever shown."""

    game_id: str
    seat: int
    token: str


class PlayerName(msgspec.Struct, frozen=True):
    """A taken seat and the name its player gave when joining (empty when none was given)."""

    seat: int
    name: str


class LobbyEntry(msgspec.Struct, frozen=True):
    """An open game in the lobby; `players` names the taken seats' players."""

    game_id: str
    game: str
    seats: int
    taken: list[int]
    created_at: str
    players: list[PlayerName] = msgspec.field(default_factory=list)


class Lobby(msgspec.Struct, frozen=True):
    """The lobby: open games, newest first (an object, so fields can be added later)."""

    games: list[LobbyEntry]


ExpectedVersion = Annotated[
    int,
    msgspec.Meta(
        ge=0,
        description="The game's version the command was chosen at: refused `command.stale` "
        "(409) if the game has moved past it when the command is decided.",
    ),
]


class SubmitCommand(Request, frozen=True):
    """A command for the caller's seat. `command_id` is chosen by the client (idempotency key).

    `expected_version`, when given, is the game's version the command was chosen at: the
    command is refused `command.stale` if the game has moved past it when it is decided."""

    command_id: str
    command: dict[str, Any]
    expected_version: ExpectedVersion | None = None


OutcomeStatus = Literal["queued", "applied", "refused"]


class CommandOutcome(msgspec.Struct, frozen=True, omit_defaults=True):
    """What became of a command: still queued, applied (events first..last), or refused.

    Once applied, the reply also says where the game stands, so a move is one round trip:
    `version` (the game's version now, which may be past `last_version` when others moved
    since), `to_act` (the seats the game waits for) and, when the command's seat is among
    them, its `legal_commands` now (empty when it is not).
    """

    command_id: str
    status: OutcomeStatus
    seat: int | None = None
    first_version: int | None = None
    last_version: int | None = None
    code: str | None = None  # the domain's stable code when refused
    message: str | None = None
    details: dict[str, Any] | None = None
    version: int | None = None
    to_act: list[int] | None = None
    legal_commands: list[dict[str, Any]] | None = None


class EventRecord(msgspec.Struct, frozen=True, omit_defaults=True):
    """One stored event: its version, the event itself, and its link in the hash chain."""

    version: int
    event: dict[str, Any]
    hash: str  # hex SHA-256 chain value after this event
    command_id: str | None = None


class EventPage(msgspec.Struct, frozen=True):
    """Events after a version, up to a limit; `last_version` is the stream's current version."""

    game_id: str
    events: list[EventRecord]
    last_version: int


class ViewEnvelope(msgspec.Struct, frozen=True):
    """A projection: the game's own view Struct at a version, for a seat or the public, and
    the seated players: each taken seat and the name its player gave (as the lobby shows)."""

    game_id: str
    version: int
    seat: int | None
    view: dict[str, Any]
    players: list[PlayerName]


class Turn(msgspec.Struct, frozen=True):
    """Where a game stands for the caller: who acts, what the caller's seat may legally send.

    `legal_commands` are the rules' own list (domain `legal_commands`) for the caller's seat,
    each a command object ready to submit; empty for a spectator or a seat not to act.
    `outcome` is the final result once `finished`.
    """

    game_id: str
    version: int
    seat: int | None
    to_act: list[int]
    legal_commands: list[dict[str, Any]]
    finished: bool
    outcome: Outcome | None = None
    # The game's life: "open" (waiting for players: nobody acts), "started", "finished"
    # (played to its end), "cancelled".
    phase: str = "started"
    # When each waited-for seat's turn clock runs out (ms since the epoch), in timed games.
    deadlines: dict[int, int] = {}


class Problem(msgspec.Struct, frozen=True, omit_defaults=True):
    """RFC 9457 problem details; `code` is the stable machine code (domain or API)."""

    type: str
    title: str
    status: int
    detail: str = ""
    code: str = ""
    instance: str = ""
    errors: list[dict[str, Any]] | None = None
    # Added for the HTTP layer: the domain's details of a refusal (what a client shows the
    # player), and the request id to quote when reporting a problem.
    details: dict[str, Any] | None = None
    request_id: str = ""


class Health(msgspec.Struct, frozen=True):
    """Liveness / readiness answer."""

    status: Literal["ok", "unavailable"]
    checks: dict[str, str]
