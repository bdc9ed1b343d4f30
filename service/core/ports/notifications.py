"""Players' notifications: the feeds, the projector's indexes (marks, cursors, reminders, the
survey of marked games), the facts it asks of a game, players' presence and stream tickets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import msgspec

from contracts.notifications import FeedEntry, Notification
from service.core.ports.webhooks import WebhookInbox

_encoder = msgspec.json.Encoder()


_decoder = msgspec.json.Decoder(Notification)


def encode_notification(notification: Notification) -> bytes:
    """A notification's JSON (as stored, streamed and delivered)."""
    return _encoder.encode(notification)


def decode_notification(data: bytes) -> Notification:
    """A notification from its JSON."""
    return _decoder.decode(data)


@dataclass(frozen=True)
class Reminder:
    """A deadline reminder: `kind` for `seat` of a game, for the deadline set at `since`."""

    game_id: str
    seat: int
    since: int
    kind: str
    deadline_ms: int
    due_ms: int

    @property
    def member(self) -> str:
        """Its member in the reminders index."""
        return f"{self.game_id}|{self.seat}|{self.since}|{self.kind}|{self.deadline_ms}"


@dataclass(frozen=True)
class MarkedGame:
    """A marked game as the projector finds it: its mark, notified cursor, head and seats."""

    game_id: str
    mark: int
    notified: int
    version: int | None  # None: no such game, or a head that is not a number (damaged)
    finished: bool
    seats: dict[int, bytes]  # taken seat -> its holder's token hash (or player id, prefixed)


class NotificationFeed(Protocol):
    """Every player's feed: append (idempotent by id), page, clear."""

    def channel(self, player_id: str) -> str:
        """The pub/sub channel announcing the player's new notifications."""
        ...

    async def page(self, player_id: str, after: str, limit: int) -> list[FeedEntry]:
        """Up to `limit` notifications after the cursor `after` ("0" for the oldest)."""
        ...

    async def latest_cursor(self, player_id: str) -> str:
        """The cursor of the newest notification ("0" for an empty feed)."""
        ...

    async def append_many(self, by_player: dict[str, list[Notification]]) -> int:
        """Add to each player's feed the notifications it does not hold yet (idempotent by
        id), queueing none for webhook delivery; how many were added."""
        ...

    def queues_with(self, webhooks: WebhookInbox) -> bool:
        """Whether `append_queued` can queue into this webhook inbox in the very step that
        appends to a feed (on one Redis, not a cluster, where they lie in different slots)."""
        ...

    async def append_queued(
        self, by_player: dict[str, list[Notification]], webhooks: WebhookInbox
    ) -> int:
        """`append_many` where each notification a feed lacks is also queued on the webhook
        inbox, if any endpoint is registered, before its feed append and in the same atomic
        step: one round trip for every player, and no separate look at which ids the feeds
        lack. Only where `queues_with(webhooks)`. How many were added."""
        ...

    async def missing_many(self, ids: dict[str, list[str]]) -> dict[str, list[bool]]:
        """`missing` for several players, in one round trip."""
        ...

    async def clear(self, player_id: str) -> None:
        """Drop a player's feed (before rebuilding it)."""
        ...


class NotifiedCursors(Protocol):
    """Per game, the last version the projector turned into notifications."""

    async def get(self, game_id: str) -> int:
        """The game's projected version (0: none yet)."""
        ...

    async def set(self, game_id: str, version: int) -> None:
        """Record that every version up to `version` was projected."""
        ...


class NotifyMarks(Protocol):
    """Games with versions not yet turned into notifications, by when they were marked."""

    key: str  # the index itself (a commit may mark its game there: `marks_in_commit`)

    async def mark(self, game_ids: list[str]) -> None:
        """Mark games that just committed versions (a later mark replaces an earlier one)."""
        ...

    async def marked(self, limit: int) -> list[tuple[str, int]]:
        """(game id, mark) of up to `limit` games, marked longest ago first."""
        ...

    async def settle(self, game_id: str, mark: int) -> bool:
        """Forget a game's mark if it is still `mark` (not marked again since it was read)."""
        ...


class Reminders(Protocol):
    """Deadline reminders not yet sent, by when they are due (ms, the Redis clock)."""

    async def add(self, reminders: list[Reminder]) -> None:
        """Schedule reminders (scheduling one twice changes nothing)."""
        ...

    async def due(self, now_ms: int, limit: int) -> list[Reminder]:
        """Reminders due at `now_ms`, oldest first."""
        ...

    async def scheduled(self, reminders: list[Reminder]) -> list[bool]:
        """For each reminder, whether it waits here still (not yet sent nor dropped)."""
        ...

    async def remove(self, reminder: Reminder) -> None:
        """Forget a reminder sent (or no longer due)."""
        ...

    async def now_ms(self) -> int:
        """The Redis clock, in ms."""
        ...


class GameFacts(Protocol):
    """What the projector reads of a game beside its events: its rematch, whether one of its
    deadlines is still pending."""

    async def rematch_of(self, game_id: str) -> str | None:
        """The id of the game's rematch; None when none was created (yet)."""
        ...

    async def in_redis(self, game_id: str) -> bool:
        """Whether the game is in Redis still (not archived, nor never created)."""
        ...

    async def deadline_pending(self, game_id: str, seat: int, since: int) -> bool:
        """Whether the seat's deadline set at `since` is still waited on."""
        ...


class NotifySurvey(Protocol):
    """The projector's batched reads and settles (see the module docstring)."""

    async def marked(self, limit: int) -> list[MarkedGame]:
        """Up to `limit` games marked longest ago, each with its cursor, head and seats."""
        ...

    async def settle(self, settled: list[tuple[MarkedGame, int | None]]) -> int:
        """Move each game's cursor to the version given with it (None: leave it), then forget
        each mark unless it was marked again since; how many marks were forgotten. The cursor
        goes first: a crash in between leaves a mark, and its game is looked at again."""
        ...


class Presence(Protocol):
    """Which players have a live notification stream open (any API process): each open
    stream is a member of the player's set, scored by when it lapses unless renewed."""

    def key(self, player_id: str) -> str:
        """The player's set of open streams."""
        ...

    async def renew(self, player_id: str, stream_id: str, ttl_ms: int) -> None:
        """The stream is open, for `ttl_ms` more at least."""
        ...

    async def leave(self, player_id: str, stream_id: str) -> None:
        """The stream closed."""
        ...

    async def present(self, player_id: str, now_ms: int) -> bool:
        """Whether the player has a stream open now."""
        ...


class PlayerStreamTickets(Protocol):
    """Short-lived tickets that open a player's notification stream from a URL (only their
    SHA-256 is stored); once used, kept for a resume window that the open stream renews, so
    a browser's EventSource reconnects with the same URL (as `store.tickets.StreamTickets`)."""

    async def issue(self, player_id: str, ttl_s: int, digest: bytes | None = None) -> str:
        """A new ticket for the player's stream, minted with the token hashing to `digest`."""
        ...

    async def redeem(self, ticket: str, keep_s: int) -> tuple[str, bytes | None] | None:
        """The player the ticket was issued to and the hash of the token it was minted with
        (None for a ticket stored before tickets kept it), keeping the ticket `keep_s` seconds
        more (to reopen the stream); None if unknown or expired."""
        ...

    async def keep(self, ticket: str, keep_s: int) -> None:
        """Keep a used ticket `keep_s` seconds more (its stream is still open)."""
        ...
