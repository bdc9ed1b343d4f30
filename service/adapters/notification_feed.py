"""Players' notification feeds on Redis, and the indexes the notification projector works from.

<prefix>notify:{<player id>}:feed  stream: the player's notifications, newest last, capped
<prefix>notify:{<player id>}:ids   sorted set: ids already in the feed (appending is idempotent)
<prefix>notify:{<player id>}:live  pub/sub channel: "the feed grew" (wakes the player's streams)
<prefix>notify:{<player id>}:present  sorted set: the player's open streams, by when they lapse
<prefix>notify-ticket:<sha256>     string: a player stream ticket's player and token hash (single
                                   use, TTL)
<prefix>game:{<id>}:notified       string: the game's last version turned into notifications
<prefix>notify:marked              sorted set: games committed since last projected, by when (µs)
<prefix>notify:reminders           sorted set: deadline reminders, by when they are due (ms)

A player's keys share the hash tag `{<player id>}` and a game's keys `{<game id>}`: every
script here touches one player's keys only, and the game's cursor is written by a separate
call, so a Redis Cluster deployment runs them unchanged. The two global indexes are written by
single commands.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from typing import Any

from redis.asyncio import Redis

from contracts.notifications import FeedEntry, Notification
from service.adapters.redis_clients import is_cluster
from service.adapters.script_pipeline import run_steps, script_step
from service.adapters.store.deadlines import deadlines_key
from service.adapters.store.keys import GameKeys
from service.adapters.webhooks import WebhookStore
from service.core.ports.notifications import Reminder, decode_notification, encode_notification
from service.core.ports.webhooks import WebhookInbox

# Append notifications not already in the feed (by id), cap the feed, and wake its streams.
# With a webhook inbox (KEYS[3]), each notification added is first queued for delivery there
# (entry fields as `WebhookStore.queue_into` writes them), in the same atomic step, while the
# endpoints hash (KEYS[4]) holds any: looked at here, so an endpoint counts from the first
# append after its registration. One Redis only (the inbox and the feed lie in different
# cluster slots).
# KEYS: feed, ids[, inbox, endpoints]; ARGV: max length, channel, player, then id, kind, body
# triples.
_APPEND = """
local added = 0
local last = nil
local maxlen = tonumber(ARGV[1])
local inbox = KEYS[3]
if inbox and redis.call('EXISTS', KEYS[4]) == 0 then
    inbox = nil
end
for i = 4, #ARGV, 3 do
    if not redis.call('ZSCORE', KEYS[2], ARGV[i]) then
        if inbox then
            redis.call('XADD', inbox, '*', 'p', ARGV[3], 'k', ARGV[i + 1], 'n', ARGV[i + 2])
        end
        last = redis.call('XADD', KEYS[1], 'MAXLEN', maxlen, '*', 'n', ARGV[i + 2])
        redis.call('ZADD', KEYS[2], tonumber(string.match(last, '^(%d+)')), ARGV[i])
        added = added + 1
    end
end
if added > 0 then
    redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(2 * maxlen) - 1)
    redis.call('PUBLISH', ARGV[2], added)
end
return added
"""

# Forget a game's mark unless it was marked again meanwhile. KEYS: marked; ARGV: game, score.
_SETTLE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
    return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
"""


def player_tag(prefix: str, player_id: str) -> str:
    """The common start of a player's notification keys (one cluster slot)."""
    return f"{prefix}notify:{{{player_id}}}:"


def feed_channel(prefix: str, player_id: str) -> str:
    """The pub/sub channel announcing a player's new notifications."""
    return player_tag(prefix, player_id) + "live"


class NotificationFeed:
    """Every player's feed: append (idempotent by id), page, clear."""

    def __init__(self, redis: Redis, prefix: str, retention: int) -> None:
        self.redis = redis
        self.prefix = prefix
        self.retention = retention
        self._append = redis.register_script(_APPEND)

    def channel(self, player_id: str) -> str:
        """The pub/sub channel announcing the player's new notifications."""
        return feed_channel(self.prefix, player_id)

    def _feed(self, player_id: str) -> str:
        return player_tag(self.prefix, player_id) + "feed"

    def _ids(self, player_id: str) -> str:
        return player_tag(self.prefix, player_id) + "ids"

    async def append(self, player_id: str, notifications: list[Notification]) -> int:
        """Add the notifications the feed does not hold yet; how many were added."""
        if not notifications:
            return 0
        added: Any = await self._append(
            keys=[self._feed(player_id), self._ids(player_id)],
            args=self._append_args(player_id, notifications),
        )
        return int(added)

    def _append_args(self, player_id: str, notifications: list[Notification]) -> list[Any]:
        """The append script's arguments for `notifications` of `player_id`'s feed."""
        args: list[Any] = [self.retention, feed_channel(self.prefix, player_id), player_id]
        for notification in notifications:
            args += [notification.id, notification.kind, encode_notification(notification)]
        return args

    async def append_many(
        self, by_player: dict[str, list[Notification]], before: Callable[[Any], int] | None = None
    ) -> int:
        """`append` for several players; how many were added. On one Redis, in one round
        trip, after the commands `before(pipeline)` queues first (it answers how many): they
        run before the appends, in order, on the same connection. On a cluster the players'
        slots may lie on several nodes: `before`'s commands are sent first, then each feed."""
        by_player = {player: theirs for player, theirs in by_player.items() if theirs}
        if is_cluster(self.redis):
            if before is not None:
                async with self.redis.pipeline(transaction=False) as pipe:
                    before(pipe)
                    await pipe.execute()
            added = 0
            for player_id, theirs in by_player.items():
                added += await self.append(player_id, theirs)
            return added
        async with self.redis.pipeline(transaction=False) as pipe:
            first = before(pipe) if before is not None else 0
            for player_id, theirs in by_player.items():
                await self._append(
                    keys=[self._feed(player_id), self._ids(player_id)],
                    args=self._append_args(player_id, theirs),
                    client=pipe,
                )
            done = await pipe.execute() if first or by_player else []
        return sum(int(n) for n in done[first:])

    def queues_with(self, webhooks: WebhookInbox) -> bool:
        """Whether `append_queued` can queue into this webhook inbox in the feed's own script:
        the Redis webhook store on this very client, and not a cluster (where the inbox and
        the feeds lie in different slots)."""
        return (
            isinstance(webhooks, WebhookStore)
            and webhooks.redis is self.redis
            and not is_cluster(self.redis)
        )

    async def append_queued(
        self, by_player: dict[str, list[Notification]], webhooks: WebhookInbox
    ) -> int:
        """`append_many` where each notification a feed lacks is also queued on the webhook
        inbox stream, if the endpoints hash holds any, before its feed append and in the same
        script: one round trip for every player, and no separate look at which ids the feeds
        lack. Only where `queues_with(webhooks)` (else ValueError). How many were added."""
        if not isinstance(webhooks, WebhookStore) or not self.queues_with(webhooks):
            raise ValueError("the webhook inbox is not on this feed's Redis: queue it apart")
        inbox, endpoints = webhooks.inbox, webhooks.endpoints_key
        steps = []
        for player_id, theirs in by_player.items():
            if not theirs:
                continue
            keys = [self._feed(player_id), self._ids(player_id), inbox, endpoints]
            steps.append(script_step(self._append, keys, self._append_args(player_id, theirs)))
        return sum(int(n) for n in await run_steps(self.redis, steps))

    async def page(self, player_id: str, after: str, limit: int) -> list[FeedEntry]:
        """Up to `limit` notifications after the cursor `after` ("0" for the oldest)."""
        rows: Any = await self.redis.xrange(
            self._feed(player_id), min=f"({after}" if after != "0" else "-", count=limit
        )
        return [
            FeedEntry(cursor=entry_id.decode(), notification=decode_notification(fields[b"n"]))
            for entry_id, fields in rows
        ]

    async def missing(self, player_id: str, ids: list[str]) -> list[bool]:
        """For each id, whether the player's feed lacks it."""
        scores: Any = await self.redis.zmscore(self._ids(player_id), ids)
        return [score is None for score in scores]

    async def missing_many(self, ids: dict[str, list[str]]) -> dict[str, list[bool]]:
        """`missing` for several players, in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for player_id, theirs in ids.items():
                pipe.zmscore(self._ids(player_id), theirs)
            found = await pipe.execute()
        return {
            player_id: [score is None for score in scores]
            for player_id, scores in zip(ids, found, strict=True)
        }

    async def latest_cursor(self, player_id: str) -> str:
        """The cursor of the newest notification ("0" for an empty feed)."""
        rows: Any = await self.redis.xrevrange(self._feed(player_id), count=1)
        return rows[0][0].decode() if rows else "0"

    async def clear(self, player_id: str) -> None:
        """Drop a player's feed (before rebuilding it)."""
        await self.redis.delete(self._feed(player_id), self._ids(player_id))


class NotifiedCursors:
    """Per game, the last version the projector turned into notifications."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix

    def _key(self, game_id: str) -> str:
        return GameKeys(self.prefix, game_id).base + "notified"

    async def get(self, game_id: str) -> int:
        """The game's projected version (0: none yet)."""
        found: Any = await self.redis.get(self._key(game_id))
        return 0 if found is None else int(found)

    async def set(self, game_id: str, version: int) -> None:
        """Record that every version up to `version` was projected."""
        await self.redis.set(self._key(game_id), version)


class NotifyMarks:
    """Games with versions not yet turned into notifications, by when they were marked."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.key = f"{prefix}notify:marked"
        self._settle = redis.register_script(_SETTLE)

    async def mark(self, game_ids: list[str]) -> None:
        """Mark games that just committed versions (a later mark replaces an earlier one)."""
        if game_ids:
            seconds, micros = await self.redis.time()
            now = int(seconds) * 1_000_000 + int(micros)
            await self.redis.zadd(self.key, dict.fromkeys(game_ids, now))

    async def marked(self, limit: int) -> list[tuple[str, int]]:
        """(game id, mark) of up to `limit` games, marked longest ago first."""
        rows: Any = await self.redis.zrange(self.key, 0, limit - 1, withscores=True)
        return [(game_id.decode(), int(score)) for game_id, score in rows]

    async def settle(self, game_id: str, mark: int) -> bool:
        """Forget a game's mark if it is still `mark` (not marked again since it was read)."""
        removed: Any = await self._settle(keys=[self.key], args=[game_id, mark])
        return bool(removed)

    async def count(self) -> int:
        """How many games wait to be projected."""
        found: Any = await self.redis.zcard(self.key)
        return int(found)


class Reminders:
    """Deadline reminders not yet sent, by when they are due (ms, the Redis clock)."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.key = f"{prefix}notify:reminders"

    async def add(self, reminders: list[Reminder]) -> None:
        """Schedule reminders (scheduling one twice changes nothing)."""
        if reminders:
            await self.redis.zadd(self.key, {r.member: r.due_ms for r in reminders})

    async def due(self, now_ms: int, limit: int) -> list[Reminder]:
        """Reminders due at `now_ms`, oldest first."""
        rows: Any = await self.redis.zrangebyscore(
            self.key, "-inf", now_ms, start=0, num=limit, withscores=True
        )
        found = []
        for member, score in rows:
            game_id, seat, since, kind, deadline = member.decode().rsplit("|", 4)
            found.append(Reminder(game_id, int(seat), int(since), kind, int(deadline), int(score)))
        return found

    async def scheduled(self, reminders: list[Reminder]) -> list[bool]:
        """For each reminder, whether it waits here still (not yet sent nor dropped)."""
        if not reminders:
            return []
        scores: Any = await self.redis.zmscore(self.key, [r.member for r in reminders])
        return [score is not None for score in scores]

    async def remove(self, reminder: Reminder) -> None:
        """Forget a reminder sent (or no longer due)."""
        await self.redis.zrem(self.key, reminder.member)

    async def now_ms(self) -> int:
        """The Redis clock, in ms."""
        seconds, micros = await self.redis.time()
        return int(seconds) * 1000 + int(micros) // 1000


class GameFacts:
    """What the projector reads of a game beside its events: its rematch, whether one of its
    deadlines is still pending."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix

    async def rematch_of(self, game_id: str) -> str | None:
        """The id of the game's rematch; None when none was created (yet)."""
        found: Any = await self.redis.get(GameKeys(self.prefix, game_id).base + "rematch")
        return found.decode() if found else None

    async def in_redis(self, game_id: str) -> bool:
        """Whether the game is in Redis still (not archived, nor never created)."""
        found: Any = await self.redis.exists(GameKeys(self.prefix, game_id).meta)
        return bool(found)

    async def deadline_pending(self, game_id: str, seat: int, since: int) -> bool:
        """Whether the seat's deadline set at `since` is still waited on."""
        score = await self.redis.zscore(deadlines_key(self.prefix), f"{game_id}|{seat}|{since}")
        return score is not None


class PlayerStreamTickets:
    """Short-lived tickets that open a player's notification stream from a URL (only their
    SHA-256 is stored); once used, kept for a resume window that the open stream renews, so
    a browser's EventSource reconnects with the same URL (as `store.tickets.StreamTickets`)."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix

    def _key(self, ticket: str) -> str:
        return f"{self.prefix}notify-ticket:{hashlib.sha256(ticket.encode()).hexdigest()}"

    async def issue(self, player_id: str, ttl_s: int, digest: bytes | None = None) -> str:
        """A new ticket for the player's stream, minted with the token hashing to `digest`."""
        ticket = secrets.token_urlsafe(24)
        value = player_id if digest is None else f"{player_id}\t{digest.hex()}"
        await self.redis.set(self._key(ticket), value, ex=ttl_s)
        return ticket

    async def redeem(self, ticket: str, keep_s: int) -> tuple[str, bytes | None] | None:
        """The player the ticket was issued to and the hash of the token it was minted with
        (None for a ticket stored before tickets kept it), keeping the ticket `keep_s` seconds
        more (to reopen the stream); None if unknown or expired."""
        found: Any = await self.redis.getex(self._key(ticket), ex=keep_s)
        if found is None:
            return None
        player_id, _, digest = found.decode().partition("\t")
        return player_id, bytes.fromhex(digest) if digest else None

    async def keep(self, ticket: str, keep_s: int) -> None:
        """Keep a used ticket `keep_s` seconds more (its stream is still open)."""
        await self.redis.expire(self._key(ticket), keep_s)


class Presence:
    """Which players have a live notification stream open (any API process): each open
    stream is a member of the player's set, scored by when it lapses unless renewed."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix

    def _key(self, player_id: str) -> str:
        return self.key(player_id)

    def key(self, player_id: str) -> str:
        """The player's set of open streams."""
        return player_tag(self.prefix, player_id) + "present"

    async def renew(self, player_id: str, stream_id: str, ttl_ms: int) -> None:
        """The stream is open, for `ttl_ms` more at least."""
        seconds, micros = await self.redis.time()
        now = int(seconds) * 1000 + int(micros) // 1000
        key = self._key(player_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.zadd(key, {stream_id: now + ttl_ms})
            pipe.zremrangebyscore(key, "-inf", now)
            pipe.pexpire(key, ttl_ms)
            await pipe.execute()

    async def leave(self, player_id: str, stream_id: str) -> None:
        """The stream closed."""
        await self.redis.zrem(self._key(player_id), stream_id)

    async def present(self, player_id: str, now_ms: int) -> bool:
        """Whether the player has a stream open now."""
        count: Any = await self.redis.zcount(self._key(player_id), now_ms, "+inf")
        return int(count) > 0
