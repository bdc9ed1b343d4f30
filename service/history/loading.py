"""Reading one game's whole record from the store, as a consistent snapshot at its head.

Only the store's public methods are used, so every adapter (in memory, Redis) works. The head
is read first; events are read up to its version and commands up to its inbox cursor count as
decided, so a worker committing meanwhile does not tear the snapshot: what it adds is simply
not part of it (commands it decides still show as "queued").
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from service.core.ports.command_keys import split_key
from service.core.ports.event_store import GameMissing, HistoryStore
from service.core.ports.records import (
    NO_INBOX_ID,
    CommandRecord,
    GameMeta,
    Head,
    ReceivedCommand,
    StoredEvent,
)

INBOX_PAGE = 1000


@dataclass(frozen=True)
class StoredCommand:
    """A command from the inbox, and its outcome record when the events cannot tell it.

    `record` is None for a command that produced events (the events say it was applied and
    where) and for one still queued at the snapshot; it is the store's record otherwise.
    """

    received: ReceivedCommand
    decided: bool
    record: CommandRecord | None = None


@dataclass(frozen=True)
class StoredGame:
    """One game's meta, head, events and inbox, read from the store at one head."""

    game_id: str
    meta: GameMeta
    head: Head
    events: list[StoredEvent]
    commands: list[StoredCommand]


def inbox_order(inbox_id: str) -> tuple[int, int]:
    """An inbox id (`<ms>-<seq>`) as a sortable pair."""
    ms, _, seq = inbox_id.partition("-")
    return int(ms), int(seq or 0)


async def read_head(store: HistoryStore, game_id: str) -> tuple[GameMeta, Head]:
    """The game's meta and head; GameMissing when there is no such game."""
    meta = await store.meta(game_id)
    head = await store.head(game_id)
    if meta is None or head is None:
        raise GameMissing(game_id)
    return meta, head


async def read_inbox(store: HistoryStore, game_id: str) -> list[ReceivedCommand]:
    """Every command the game ever received, in the order received."""
    commands: list[ReceivedCommand] = []
    after = NO_INBOX_ID
    while True:
        page = await store.inbox(game_id, after, INBOX_PAGE)
        commands += page
        if len(page) < INBOX_PAGE:
            return commands
        after = page[-1].inbox_id


async def read_game(store: HistoryStore, game_id: str) -> StoredGame:
    """The game's record at its current head (see the module docstring). Every event's command
    tag is the key of its command (`<seat>:<id>`), bare tags of old records included."""
    meta, head = await read_head(store, game_id)
    events = await store.read(game_id, 0, head.version) if head.version else []
    inbox = await read_inbox(store, game_id)
    events = keyed_events(events, inbox)
    with_events = {event.command_id for event in events if event.command_id is not None}
    cursor = inbox_order(head.cursor)
    commands = []
    for received in inbox:
        decided = inbox_order(received.inbox_id) <= cursor
        record = None
        if decided and received.key not in with_events:
            # Refused, or applied with no events: only the outcome record tells which.
            record = await store.command(game_id, received.seat, received.command_id)
        commands.append(StoredCommand(received, decided, record))
    return StoredGame(game_id, meta, head, events, commands)


def keyed_events(events: list[StoredEvent], inbox: list[ReceivedCommand]) -> list[StoredEvent]:
    """The events with each bare command tag (written before command ids were per seat, when
    an id named one command of the game) replaced by the key of the first command received
    with that id. A tag that names no command stays as it is (verify reports it)."""
    first_with_id: dict[str, str] = {}
    for received in inbox:
        first_with_id.setdefault(received.command_id, received.key)
    keyed = []
    for event in events:
        tag = event.command_id
        if tag is not None and split_key(tag) is None and tag in first_with_id:
            event = msgspec.structs.replace(event, command_id=first_with_id[tag])
        keyed.append(event)
    return keyed
