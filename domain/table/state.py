"""A table: one game as the service plays it, its rules' state and everything around it.

The game's own state is the rules' (`domain.engine`); the table adds who holds each seat (a
player, or a bot: for the whole game, or since the seat resigned, was abandoned or forfeited),
the phase of its life cycle, the turn timer's policy and its deadlines as data, and the stream
version. `evolve` follows one stream event, the game's own or the service's (contracts.stream),
so a table folded from a stored stream is the table that decided it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from contracts.stream import (
    META_EVENT_CLASSES,
    Clock,
    ClockSet,
    GameCancelled,
    GameOpened,
    SeatAbandoned,
    SeatForfeited,
    SeatResigned,
    SeatTakenBack,
    SeedRevealed,
    TableStarted,
    TurnClocks,
    TurnTimedOut,
)
from domain.chance import Chance
from domain.engine import Game
from domain.table.clocks import first_clocks

# "started" for tables without GameOpened (guest games start at creation), else "open" until
# TableStarted, or "cancelled".
Phase = Literal["open", "started", "cancelled"]


@dataclass
class Table:
    """Everything needed to decide a game's next commands. Owned by whoever folds it: the
    game's state inside is updated in place (as the rules' `evolve` does)."""

    game: Game
    seats: int
    rules_version: str  # the rules the game was created under
    seed: bytes
    chance: Chance
    state: Any = None
    version: int = 0  # the stream version of the last event followed
    finished: bool = False
    phase: Phase = "started"
    bots: frozenset[int] = frozenset()  # seats a bot plays (for the game, or since they left)
    clock: Clock | None = None  # the turn timer, for games created with one
    clocks: TurnClocks | None = None  # the deadlines now, each seat's bank and missed turns
    abandoned: frozenset[int] = frozenset()  # bots' seats a player may take back
    forfeited: frozenset[int] = frozenset()  # seats out of the game, ranked last

    @classmethod
    def new(cls, game: Game, seats: int, rules_version: str, seed: bytes) -> Table:
        """A table before any event is followed (no state, at version 0)."""
        return cls(game, seats, rules_version, seed, Chance(seed))

    @property
    def rules_supported(self) -> bool:
        """Whether these rules are the ones the game was created under."""
        return self.rules_version == self.game.rules_version

    def deadlines(self) -> dict[int, int]:
        """When each waited-for seat's clock runs out (ms), in a timed game not over."""
        if self.clocks is None or self.finished:
            return {}
        return {entry.seat: entry.deadline_ms for entry in self.clocks.entries}


def is_service_event(event: object) -> bool:
    """Whether a stream event is the service's own (the game's `evolve` never sees it)."""
    return isinstance(event, META_EVENT_CLASSES)


def evolve(table: Table, event: Any) -> Table:
    """Follow one stream event (the next version): the game's own events through the rules'
    `evolve`, the service's through `follow`."""
    if is_service_event(event):
        follow(table, event)
    else:
        table.state = table.game.evolve(table.state, event)
    table.version += 1
    return table


def fold(table: Table, events: Iterable[Any]) -> Table:
    """Follow every event in order."""
    for event in events:
        evolve(table, event)
    return table


def follow(table: Table, event: object) -> None:
    """Take the phase, the seats' holders or the clocks a service event sets."""
    if isinstance(event, ClockSet):
        table.clock = event.clock
        table.clocks = first_clocks(event.clock, table.seats)
    elif isinstance(event, TurnClocks):
        table.clocks = event
    elif isinstance(event, TurnTimedOut) and table.clocks is not None:
        table.clocks = _with_missed(table.clocks, event.seat, event.missed)
    elif isinstance(event, SeatAbandoned):
        table.bots, table.abandoned = table.bots | {event.seat}, table.abandoned | {event.seat}
    elif isinstance(event, SeatForfeited):
        table.bots, table.forfeited = table.bots | {event.seat}, table.forfeited | {event.seat}
        table.abandoned = table.abandoned - {event.seat}
    elif isinstance(event, SeatTakenBack):
        table.bots, table.abandoned = table.bots - {event.seat}, table.abandoned - {event.seat}
        if table.clocks is not None:  # a fresh start: no missed turns in a row
            table.clocks = _with_missed(table.clocks, event.seat, 0)
    elif isinstance(event, SeatResigned):
        table.bots = table.bots | {event.seat}
    elif isinstance(event, GameOpened):
        table.phase = "open"
    elif isinstance(event, TableStarted):
        table.phase, table.bots = "started", frozenset(event.bots)
    elif isinstance(event, GameCancelled):
        table.phase = "cancelled"
    elif isinstance(event, SeedRevealed):
        table.finished = True


def _with_missed(clocks: TurnClocks, seat: int, missed_now: int) -> TurnClocks:
    missed = list(clocks.missed)
    missed[seat] = missed_now
    return TurnClocks(clocks.entries, clocks.banks, missed)
