"""A player's notifications: what happened in one of their games that they may want to know.

A notification carries no hidden information: the game (its id and its kind, the registered
name such as `fjords`), the kind of notification, the version it arose at,
the player's seat, and only public facts beside (the rank in a finished game, a deadline, a
rematch's id). Its id is derived from (game, version, kind, seat), so deriving it twice from
the same events gives the same notification, and a receiver deduplicates on it.
"""

from __future__ import annotations

from typing import Literal

import msgspec

NotificationKind = Literal[
    "your_turn",
    "deadline_1h",
    "deadline_5m",
    "seat_taken_by_bot",
    "game_started",
    "game_finished",
    "game_cancelled",
    "rematch_offered",
]
NOTIFICATION_KINDS: tuple[str, ...] = (
    "your_turn",
    "deadline_1h",
    "deadline_5m",
    "seat_taken_by_bot",
    "game_started",
    "game_finished",
    "game_cancelled",
    "rematch_offered",
)


def notification_id(game_id: str, version: int, kind: str, seat: int) -> str:
    """The stable id of a notification: one per (game, version, kind, seat)."""
    return f"{game_id}:{version}:{kind}:{seat}"


class Notification(msgspec.Struct, frozen=True, omit_defaults=True):
    """One thing that happened in one of the player's games."""

    id: str
    game_id: str
    kind: NotificationKind
    version: int  # the game's version it arose at
    seat: int  # the player's seat in that game
    rank: int | None = None  # game_finished: the seat's place (1 = first; ties share it)
    deadline_ms: int | None = None  # deadline_*: when the seat's clock runs out (Unix ms)
    rematch_id: str | None = None  # rematch_offered: the new game
    # The game's registered name (`fjords`, ...); "" in notifications stored before it was.
    game: str = ""


class FeedEntry(msgspec.Struct, frozen=True):
    """A notification in a player's feed, with its position there (an opaque, ordered id)."""

    cursor: str
    notification: Notification


class NotificationPage(msgspec.Struct, frozen=True):
    """A page of a player's notifications, oldest first; `next` is the `after=` of the next
    page (the last entry's cursor, or the given one when the page is empty)."""

    notifications: list[FeedEntry]
    next: str
