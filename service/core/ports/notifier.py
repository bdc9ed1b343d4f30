"""Version notifications: a commit publishes a game's new version (`Publisher`), API processes
listen for it (`Notifier`), and each message arrives as an `Update` (the version, and the
viewers' views at it when the commit sent them: the Redis adapter's notifications.py says how).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import Protocol

import msgspec

from service.core.ports.views import (
    LIVE_AFTER_FIELD,
    live_events_field,
    live_turn_field,
    view_field,
)

RECHECK = -1  # the version of the update every listener gets when messages may have been lost


class _Versioned(msgspec.Struct):
    version: int


_RECORDS = msgspec.json.Decoder(list[msgspec.Raw])


_VERSION = msgspec.json.Decoder(_Versioned)


@dataclass(frozen=True)
class Update:
    """A game's new version, with the viewers' JSON views at it when the commit sent them."""

    version: int
    views: dict[bytes, bytes] = field(default_factory=dict)  # views field -> JSON

    def view_for(self, seat: int | None) -> bytes | None:
        """The seat's (None: the public) JSON view at this version, if the message held it."""
        return self.views.get(view_field("json", seat).encode())

    def turn_for(self, seat: int | None) -> bytes | None:
        """The seat's (None: the public) JSON turn at this version, if the message held it."""
        return self.views.get(live_turn_field(seat).encode())

    def events_for(self, seat: int | None, after: int) -> list[tuple[int, bytes]] | None:
        """The seat's (None: the public) records of the events after version `after` up to
        this one, each `(version, JSON)`, if the message held exactly those; else None."""
        follows = self.views.get(LIVE_AFTER_FIELD.encode())
        carried = self.views.get(live_events_field(seat).encode())
        if follows is None or carried is None or int(follows) != after:
            return None
        records = _RECORDS.decode(carried)
        return [(_VERSION.decode(record).version, bytes(record)) for record in records]

    @classmethod
    def parse(cls, data: bytes) -> Update:
        """An update from a published message; ValueError when it is not one."""
        head, _, rest = data.partition(b"\n")
        views = dict(line.split(b"\t", 1) for line in rest.split(b"\n")) if rest else {}
        return cls(int(head), views)


RECHECK_UPDATE = Update(RECHECK)


class Publisher(Protocol):
    """Announces a game's new version on its channel."""

    async def publish(self, game_id: str, version: int) -> None:
        """Tell listeners the game moved to `version` (or decided commands at it)."""
        ...


class Notifier(Protocol):
    """Shared subscriptions: `listen(game_id)` yields a queue of the game's updates."""

    def listen(self, game_id: str) -> contextlib.AbstractAsyncContextManager[asyncio.Queue[Update]]:
        """Subscribe to the game's updates for the duration of the block."""
        ...

    def listen_channel(
        self, channel: str
    ) -> contextlib.AbstractAsyncContextManager[asyncio.Queue[Update]]:
        """Subscribe to any channel whose messages are updates (a player's notifications)."""
        ...

    async def close(self) -> None:
        """Stop listening and close the connection."""
        ...
