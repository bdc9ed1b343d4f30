"""What a game's new events mean to its players: notifications and deadline reminders.

Folding a game's events through its table (domain.table), after each command's events (one group per
command id) the projector compares the seats the game waits for and whether it is over with
before; the service's own events say the rest:

- your_turn: a player's seat the game did not wait for before the group and waits for after;
- game_started (TableStarted), game_cancelled (GameCancelled), seat_taken_by_bot
  (SeatAbandoned, SeatResigned, SeatForfeited), game_finished (the game's outcome, with the
  seat's rank);
- TurnClocks: a reminder an hour and five minutes before each player's deadline, sent only if
  the deadline is still pending when it falls due (service.core.notifying.projector).

Ids are (game, version, kind, seat), so deriving the same events twice gives the same
notifications: the feed and every webhook receiver deduplicate on them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from contracts.notifications import Notification, NotificationKind, notification_id
from contracts.stream import (
    GameCancelled,
    SeatAbandoned,
    SeatForfeited,
    SeatResigned,
    TableStarted,
    TurnClocks,
)
from domain.table import Table, evolve
from service.core.codec import GameCodec
from service.core.game_cache import GameCache
from service.core.ports.notifications import Reminder
from service.core.ports.records import StoredEvent

HOUR_MS = 3_600_000
FIVE_MINUTES_MS = 300_000
REMINDER_LEADS: tuple[tuple[NotificationKind, int], ...] = (
    ("deadline_1h", HOUR_MS),
    ("deadline_5m", FIVE_MINUTES_MS),
)


@dataclass(frozen=True)
class DeadlineEnd:
    """When a deadline stopped being waited on: the version and command (`<seat>:<id>`) of
    the event that ended it, and the drain's clock then (ms) when that event says it (a
    TurnClocks that sets new deadlines carries it as their start), else None."""

    version: int
    command_key: str | None
    at_ms: int | None


@dataclass
class FollowedGame:
    """A game's table as the projector last folded it (its version is the table's)."""

    game_id: str
    name: str  # the game's registered name
    codec: GameCodec
    table: Table

    @property
    def version(self) -> int:
        """The version of the last event folded."""
        return self.table.version


class FollowedGames(GameCache[FollowedGame]):
    """The projector's followed games by game id, least recently used evicted first."""


@dataclass
class Derived:
    """Notifications by seat, reminders to schedule, and the deadlines (seat, since) that
    the events ended (a TurnClocks without them, the game over or cancelled)."""

    notifications: list[Notification] = field(default_factory=list)
    reminders: list[Reminder] = field(default_factory=list)
    ended: dict[tuple[int, int], DeadlineEnd] = field(default_factory=dict)


def notify(
    game_id: str,
    kind: NotificationKind,
    version: int,
    seat: int,
    *,
    game: str,
    rank: int | None = None,
    deadline_ms: int | None = None,
    rematch_id: str | None = None,
) -> Notification:
    """A notification with its derived id; `game` is the game's registered name."""
    return Notification(
        id=notification_id(game_id, version, kind, seat),
        game_id=game_id,
        game=game,
        kind=kind,
        version=version,
        seat=seat,
        rank=rank,
        deadline_ms=deadline_ms,
        rematch_id=rematch_id,
    )


def acting(table: Table) -> frozenset[int]:
    """The seats the game waits for now (none before it starts and once it is over)."""
    if table.phase != "started" or table.state is None:
        return frozenset()
    return frozenset(table.game.to_act(table.state))


def is_over(table: Table) -> bool:
    """Whether the game's rules say it is over."""
    if table.phase != "started" or table.state is None:
        return False
    return table.game.outcome(table.state) is not None


def groups(events: list[StoredEvent]) -> Iterator[list[StoredEvent]]:
    """Consecutive events of one command (events without a command id group together)."""
    group: list[StoredEvent] = []
    for stored in events:
        if group and group[-1].command_id != stored.command_id:
            yield group
            group = []
        group.append(stored)
    if group:
        yield group


def reminders_for(game_id: str, clocks: TurnClocks, players: set[int]) -> list[Reminder]:
    """The reminders of a TurnClocks event's deadlines that players hold."""
    found = []
    for entry in clocks.entries:
        if entry.seat not in players:
            continue
        for kind, lead in REMINDER_LEADS:
            due = entry.deadline_ms - lead
            if due > entry.started_ms:  # a clock shorter than the lead has no such reminder
                deadline = entry.deadline_ms
                found.append(Reminder(game_id, entry.seat, entry.since, kind, deadline, due))
    return found


def derive(followed: FollowedGame, events: list[StoredEvent], players: set[int]) -> Derived:
    """Fold `events` (those after the followed table's version) into it and return what they
    mean to the seats in `players` (seats held by players, not bots or guests)."""
    derived = Derived()
    game_id, game, table = followed.game_id, followed.name, followed.table
    before, was_over = acting(table), is_over(table)
    held = _held(table)
    for group in groups(events):
        for stored in group:
            event = follow(followed, stored)
            _from_service_event(derived, followed, stored.version, event, players)
            if isinstance(event, TurnClocks):
                fresh = [e.started_ms for e in event.entries if e.since == stored.version]
                end = DeadlineEnd(stored.version, stored.command_id, fresh[0] if fresh else None)
                now_held = {(e.seat, e.since) for e in event.entries}
                derived.ended.update(dict.fromkeys(held - now_held, end))
                held = now_held
        version = group[-1].version
        now, over = acting(table), is_over(table)
        if held and (over or table.phase != "started"):  # over or cancelled: none waits
            end = DeadlineEnd(version, group[-1].command_id, None)
            derived.ended.update(dict.fromkeys(held, end))
            held = set()
        for seat in sorted((now - before) & players - table.bots):
            derived.notifications.append(notify(game_id, "your_turn", version, seat, game=game))
        if over and not was_over:
            outcome = table.game.outcome(table.state)
            for score in outcome.scores if outcome is not None else []:
                if score.seat in players:
                    finished = notify(
                        game_id, "game_finished", version, score.seat, game=game, rank=score.rank
                    )
                    derived.notifications.append(finished)
        before, was_over = now, over
    return derived


def follow(followed: FollowedGame, stored: StoredEvent) -> object:
    """Fold one stored event into the followed table; the event decoded."""
    event = followed.codec.decode_event(stored.data)
    evolve(followed.table, event)
    followed.table.version = stored.version
    return event


def _held(table: Table) -> set[tuple[int, int]]:
    """The deadlines (seat, since) the table waits on."""
    if table.clocks is None or table.phase != "started" or is_over(table):
        return set()
    return {(entry.seat, entry.since) for entry in table.clocks.entries}


def _from_service_event(
    derived: Derived, followed: FollowedGame, version: int, event: object, players: set[int]
) -> None:
    game_id, game = followed.game_id, followed.name
    if isinstance(event, TableStarted):
        for seat in sorted(players):
            derived.notifications.append(notify(game_id, "game_started", version, seat, game=game))
    elif isinstance(event, GameCancelled):
        for seat in sorted(players):
            cancelled = notify(game_id, "game_cancelled", version, seat, game=game)
            derived.notifications.append(cancelled)
    elif isinstance(event, SeatAbandoned | SeatResigned | SeatForfeited) and event.seat in players:
        # A forfeit, like a resignation or an abandon, leaves the seat to a bot.
        taken = notify(game_id, "seat_taken_by_bot", version, event.seat, game=game)
        derived.notifications.append(taken)
    elif isinstance(event, TurnClocks):
        derived.reminders += reminders_for(game_id, event, players)
