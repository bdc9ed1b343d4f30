"""Game-agnostic events the service writes around a game's own events.

A stream is: GameCreated, GameOpened (games a player created), the game's setup events,
TableStarted (once every seat is held), the events of each applied command (a bot's or the
service's own too), and SeedRevealed once the game is over (or GameCancelled, SeedRevealed).
Only the game's own events are folded by `evolve`.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec


class GameCreated(
    msgspec.Struct, tag="GameCreated", tag_field="type", frozen=True, omit_defaults=True
):
    """The first event of every stream: what game, under which rules, and the seed commitment."""

    game: str
    rules_version: str
    config: dict[str, object]
    seed_sha256: str  # hex SHA-256 of the secret seed; the seed itself comes at the end
    created_at: str  # ISO 8601, UTC
    # Whether the game's result updates its players' ratings (docs/ratings.md); written only
    # when false, so a rated game's first event is the same bytes as before ratings existed.
    rated: bool = True


class SeedRevealed(msgspec.Struct, tag="SeedRevealed", tag_field="type", frozen=True):
    """The last event of a finished game: the seed, so anyone can re-derive every draw."""

    seed_hex: str


class GameOpened(msgspec.Struct, tag="GameOpened", tag_field="type", frozen=True):
    """A game created by a player: it waits for players, refusing commands until started."""

    creator: str  # the creating player's id (public, like a profile)


class TableStarted(msgspec.Struct, tag="TableStarted", tag_field="type", frozen=True):
    """Every seat is held (by players, or by bots the creator asked for): commands now apply."""

    bots: list[int]  # seats a bot plays for the whole game


class GameCancelled(
    msgspec.Struct, tag="GameCancelled", tag_field="type", frozen=True, omit_defaults=True
):
    """Its creator cancelled the game before it started; SeedRevealed follows."""

    by: str  # the creator's player id ("" when the workers cancelled it)
    reason: str = ""  # "expired": it waited for its players longer than the service allows


class Clock(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A game's turn timer: a clock per move, optionally a total clock with an increment."""

    # e.g. 86400 (a day, async play) or 60 (live); from a second to a year
    per_move_s: Annotated[float, msgspec.Meta(ge=1, le=366 * 86400)]
    # a seat's whole-game bank (0: none), at most a year; each move adds `increment_s`, at
    # most a day (the bank then grows at most a day a move: its milliseconds always fit the
    # store's 64-bit integers)
    total_s: Annotated[float, msgspec.Meta(ge=0, le=366 * 86400)] = 0.0
    increment_s: Annotated[float, msgspec.Meta(ge=0, le=86400)] = 0.0
    # missed turns in a row after which a bot holds the seat for good
    abandon_after: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 3
    # what acts for a seat whose deadline passed: a bot plays its turn; its turn is passed
    # (games whose rules let a seat pass, each game's README says); or the seat forfeits
    on_timeout: Literal["bot", "skip", "forfeit"] = "bot"
    # whether an abandoned seat's player takes it back from the bot with their next command
    # (strictly a boolean on the wire: true or false, never 0 or 1)
    take_back: Literal[True, False] = False


class ClockSet(msgspec.Struct, tag="ClockSet", tag_field="type", frozen=True):
    """The game runs with a turn timer (right after GameCreated)."""

    clock: Clock


class ClockEntry(msgspec.Struct, frozen=True):
    """One waited-for seat's deadline, set at version `since` (its timeout names it)."""

    seat: int
    since: int
    started_ms: int
    deadline_ms: int
    bank_ms: int  # the seat's total clock left when its turn started (0 without one)


class TurnClocks(msgspec.Struct, tag="TurnClocks", tag_field="type", frozen=True):
    """The deadlines of every seat the game waits for now (replacing the last TurnClocks),
    each seat's total clock and its missed turns in a row."""

    entries: list[ClockEntry]
    banks: list[int]
    missed: list[int]


class TurnTimedOut(msgspec.Struct, tag="TurnTimedOut", tag_field="type", frozen=True):
    """A seat's deadline passed before it moved; `missed` turns in a row now."""

    seat: int
    missed: int


class SeatAbandoned(msgspec.Struct, tag="SeatAbandoned", tag_field="type", frozen=True):
    """The seat missed too many turns: a bot holds it for the rest of the game."""

    seat: int


class SeatResigned(msgspec.Struct, tag="SeatResigned", tag_field="type", frozen=True):
    """The seat's player resigned: a bot plays the seat for the rest of the game (the rule of
    every built-in game, stated in its README)."""

    seat: int


class TurnSkipped(msgspec.Struct, tag="TurnSkipped", tag_field="type", frozen=True):
    """The timed-out seat's turn is passed (timeout policy `skip`): the game's own passing
    commands follow, under the command id `bot:<seat>:<version>:pass`."""

    seat: int


class SeatForfeited(msgspec.Struct, tag="SeatForfeited", tag_field="type", frozen=True):
    """The timed-out seat is out (timeout policy `forfeit`): ranked last whatever its points;
    a bot holds it so the game goes on (each game's README states the rule)."""

    seat: int


class SeatTakenBack(msgspec.Struct, tag="SeatTakenBack", tag_field="type", frozen=True):
    """The player of an abandoned seat took it back from the bot with a command (clocks whose
    `take_back` is set); that command is decided right after."""

    seat: int


# Bots' moves carry command ids `bot:<seat>:<version>:<bot>` (a colon: no client id holds one;
# <bot> is `greedy`, or `pass` for a skipped seat's passing move; ids stored before the marker,
# `bot:<seat>:<version>`, were a uniformly random stand-in's).
BOT_ID_PREFIX = "bot:"

LifecycleEvent = GameOpened | TableStarted | GameCancelled
MetaEvent = (
    GameCreated
    | GameOpened
    | TableStarted
    | GameCancelled
    | ClockSet
    | TurnClocks
    | TurnTimedOut
    | SeatAbandoned
    | SeatResigned
    | SeedRevealed
    | TurnSkipped
    | SeatForfeited
    | SeatTakenBack
)
META_EVENT_CLASSES: tuple[type, ...] = (
    GameCreated,
    GameOpened,
    TableStarted,
    GameCancelled,
    ClockSet,
    TurnClocks,
    TurnTimedOut,
    SeatAbandoned,
    SeatResigned,
    SeedRevealed,
    TurnSkipped,
    SeatForfeited,
    SeatTakenBack,
)
META_EVENT_TYPES: frozenset[str] = frozenset(cls.__name__ for cls in META_EVENT_CLASSES)
