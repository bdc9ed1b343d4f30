"""What a store's finished turns announced, heard the way each adapter announces it."""

from __future__ import annotations

import asyncio
import re
from typing import Any, Protocol

from redis.asyncio import Redis

from service.adapters.store.keys import GameKeys

# How long a Redis listener waits for one more message before it calls the list complete.
_QUIET_S = 0.2


class Notifications(Protocol):
    """The (game id, version) announcements heard so far."""

    async def heard(self) -> list[tuple[str, int]]:
        """Every announcement heard until now, in order."""
        ...


class RecordedNotifications:
    """The in-memory store's `notify` callback, recording what it is told."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def __call__(self, game_id: str, version: int) -> None:
        self.calls.append((game_id, version))

    async def heard(self) -> list[tuple[str, int]]:
        """Every announcement heard until now, in order."""
        return list(self.calls)


class PublishedNotifications:
    """A pub/sub subscription to every game's updates channel under a key prefix."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self._pubsub = redis.pubsub()
        self._pattern = GameKeys(prefix, "*").updates.replace("{*}", "*")
        self._channel = re.compile(re.escape(prefix) + r"game:\{(?P<game>[^}]+)\}:updates")
        self._heard: list[tuple[str, int]] = []

    async def start(self) -> None:
        """Subscribe, and wait until Redis confirms it."""
        await self._pubsub.psubscribe(self._pattern)
        while (await self._next()) is None:
            pass

    async def _next(self) -> dict[str, Any] | None:
        message: dict[str, Any] | None = await self._pubsub.get_message(timeout=_QUIET_S)
        return message

    async def heard(self) -> list[tuple[str, int]]:
        """Every announcement heard until now, in order."""
        while (message := await self._next()) is not None:
            if message["type"] != "pmessage":
                continue
            found = self._channel.fullmatch(message["channel"].decode())
            assert found is not None, message
            self._heard.append((found["game"], int(message["data"])))
        return list(self._heard)

    async def close(self) -> None:
        """Unsubscribe and close the connection."""
        await self._pubsub.aclose()  # type: ignore[no-untyped-call]


async def subscribed(redis: Redis, prefix: str) -> PublishedNotifications:
    """A started subscription (its caller closes it)."""
    notifications = PublishedNotifications(redis, prefix)
    await asyncio.wait_for(notifications.start(), timeout=5)
    return notifications
