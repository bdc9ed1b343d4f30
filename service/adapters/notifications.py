"""Version notifications: a game's commit PUBLISHes its new version; API processes listen.

One pub/sub connection per API process carries every game anyone there is waiting on;
channels are subscribed while at least one listener needs them, and a listener is only
handed its queue once Redis has confirmed the subscription, so nothing published after a
caller's own read can be missed. After a lost connection every listener gets `RECHECK`:
messages may have been missed, so look again.

A message is the version in decimal, and, when the commit found listeners, each viewer's JSON
view at that version, one per line: `<views field>\t<ViewEnvelope JSON>` (compact JSON has
no raw tab or newline). Server-sent event streams then send their seat's view without reading
it back: each update cost every stream a Redis round trip, the API's largest cost per command
at half load (`skald bench`). Lines `live:after\t<version>` and `live:<seat or p>\t<JSON array
of EventRecords>` carry the commit's events as each viewer may see them, so a feed that is at
`live:after` sends them without reading the event stream either (two round trips per feed per
update), and lines `live:turn:<seat or p>\t<Turn JSON>` each viewer's turn (who acts, the
seat's legal commands, the clock), which a seat's socket sends after its view. An `Update`
holds every seat's view: a listener takes its own (`view_for`, `events_for`, `turn_for`) and
nothing else.

On a Redis Cluster the channels are sharded ones (SSUBSCRIBE, SPUBLISH: a message stays on
the nodes of its game's slot): redis-py's cluster pub/sub keeps one connection per master
that serves a subscribed game. After a lost connection (a failover) the notifier starts a new
one on the current masters and subscribes again.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import redis.exceptions
import structlog
from redis.asyncio import Redis

from service.adapters.redis_clients import is_cluster
from service.adapters.redis_outage import REDIS_OUTAGE
from service.adapters.store.keys import GameKeys
from service.core.ports.notifier import RECHECK_UPDATE, Update

_QUEUE_SIZE = 64
_RECONNECT_DELAY_S = 0.5
_PUBSUB_CALL_S = 2.0  # the longest a (un)subscribe may hold the notifier's lock
_SHARDED_POLL_S = 0.05  # a cluster's reader waits this long on one node before the next

log = structlog.get_logger("skald.notify")


class Publisher:
    """Announces a game's new version on its channel."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix

    async def publish(self, game_id: str, version: int) -> None:
        """Tell listeners the game moved to `version` (or decided commands at it)."""
        channel = GameKeys(self.prefix, game_id).updates
        if is_cluster(self.redis):
            await self.redis.spublish(channel, version)
        else:
            await self.redis.publish(channel, version)


def _offer(queue: asyncio.Queue[Update], update: Update) -> None:
    # A slow listener only needs the latest news: drop the oldest rather than block the reader.
    if queue.full():
        with contextlib.suppress(asyncio.QueueEmpty):
            queue.get_nowait()
    queue.put_nowait(update)


class Notifier:
    """Shared subscriptions: `listen(game_id)` yields a queue of the game's updates."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self._redis = redis
        self._sharded = is_cluster(redis)
        self._pubsub: Any = redis.pubsub()
        self._prefix = prefix
        self._listeners: dict[str, set[asyncio.Queue[Update]]] = {}
        self._confirmed: dict[str, asyncio.Event] = {}
        self._reader: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    def listeners(self, game_id: str) -> int:
        """How many listeners the game has in this process."""
        return len(self._listeners.get(GameKeys(self._prefix, game_id).updates, ()))

    def channels(self) -> list[str]:
        """The channels listened to in this process."""
        return sorted(self._listeners)

    def listen(self, game_id: str) -> contextlib.AbstractAsyncContextManager[asyncio.Queue[Update]]:
        """Subscribe to the game's updates for the duration of the block."""
        return self.listen_channel(GameKeys(self._prefix, game_id).updates)

    @contextlib.asynccontextmanager
    async def listen_channel(self, channel: str) -> AsyncIterator[asyncio.Queue[Update]]:
        """Subscribe to any channel whose messages are updates (a player's notifications)."""
        queue: asyncio.Queue[Update] = asyncio.Queue(_QUEUE_SIZE)
        async with self._lock:
            listeners = self._listeners.setdefault(channel, set())
            listeners.add(queue)
            confirmed = self._confirmed.get(channel)
            if confirmed is None:
                confirmed = self._confirmed[channel] = asyncio.Event()
                try:
                    # Bounded: the lock is held, and a pub/sub connection left half-way by a
                    # cancelled caller must not hold every later listener up.
                    async with asyncio.timeout(_PUBSUB_CALL_S):
                        await self._subscribe(channel)
                except BaseException as exc:
                    self._drop(channel, queue)
                    if isinstance(exc, Exception) and not isinstance(exc, REDIS_OUTAGE):
                        # redis-py's pub/sub can fail with a bare AttributeError on a connection
                        # torn down mid-command: an outage all the same (503, never a 500).
                        raise redis.exceptions.ConnectionError(
                            f"subscribing failed: {exc!r}"
                        ) from exc
                    raise
                if self._reader is None or self._reader.done():
                    self._reader = asyncio.create_task(self._read(), name="skald-notifier")
        try:
            await confirmed.wait()
            yield queue
        finally:
            async with self._lock:
                if self._drop(channel, queue):
                    await self._unsubscribe(channel)

    async def _unsubscribe(self, channel: str) -> None:
        # Leaving never fails the caller: its answer is already decided. During an outage
        # redis-py may raise anything here (an AttributeError on a connection it tore down was
        # a 500); the subscription then died with the connection, and a channel left
        # subscribed by mistake only brings messages that no listener is handed.
        try:
            async with asyncio.timeout(_PUBSUB_CALL_S):  # bounded, as subscribing is
                if self._sharded:
                    await self._pubsub.sunsubscribe(channel)
                else:
                    await self._pubsub.unsubscribe(channel)
        except Exception as exc:
            log.warning("notifier_unsubscribe_failed", channel=channel, error=repr(exc))

    def _drop(self, channel: str, queue: asyncio.Queue[Update]) -> bool:
        listeners = self._listeners.get(channel)
        if listeners is None:
            return False
        listeners.discard(queue)
        if listeners:
            return False
        del self._listeners[channel]
        self._confirmed.pop(channel, None)
        return True

    async def _subscribe(self, channel: str) -> None:
        if self._sharded:
            await self._redis.initialize()  # the slot map (once; a no-op afterwards)
            await self._pubsub.ssubscribe(channel)
        else:
            await self._pubsub.subscribe(channel)

    async def _next_message(self) -> Any:
        if not self._sharded:
            return await self._pubsub.get_message(timeout=None)
        # Round-robin over the masters' connections; with none yet, nothing to wait on.
        if not self._pubsub.node_pubsub_mapping:
            await asyncio.sleep(_SHARDED_POLL_S)
            return None
        return await self._pubsub.get_sharded_message(timeout=_SHARDED_POLL_S)

    async def _resubscribe_sharded(self) -> None:
        # A failover: the slot's new master has none of our subscriptions. Start afresh on the
        # current masters (a new pub/sub), and subscribe every channel listened to again.
        async with self._lock:
            old, self._pubsub = self._pubsub, self._redis.pubsub()
            with contextlib.suppress(Exception):
                await old.aclose()
            with contextlib.suppress(Exception):
                await self._redis.nodes_manager.initialize()  # type: ignore[attr-defined]
            for channel in list(self._listeners):
                try:
                    async with asyncio.timeout(_PUBSUB_CALL_S):
                        await self._subscribe(channel)
                except Exception as exc:
                    log.warning("notifier_resubscribe_failed", channel=channel, error=repr(exc))

    async def _read(self) -> None:
        while True:
            try:
                message = await self._next_message()
            except Exception as exc:  # an outage, or redis-py tripping over a dead connection
                log.warning("notifier_disconnected", error=repr(exc))
                for listeners in self._listeners.values():
                    for queue in listeners:
                        _offer(queue, RECHECK_UPDATE)
                await asyncio.sleep(_RECONNECT_DELAY_S)
                if self._sharded:
                    await self._resubscribe_sharded()
                continue
            if message is None:
                continue
            channel = message["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else str(channel)
            if message["type"] in ("subscribe", "ssubscribe"):
                event = self._confirmed.get(channel)
                if event is not None:
                    event.set()
            elif message["type"] in ("message", "smessage"):
                try:
                    update = Update.parse(message["data"])
                except ValueError:
                    continue
                for queue in self._listeners.get(channel, ()):
                    _offer(queue, update)

    async def close(self) -> None:
        """Stop listening and close the connection."""
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
