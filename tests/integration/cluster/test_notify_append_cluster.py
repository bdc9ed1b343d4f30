"""Several players' notifications appended in one call, with the webhook inbox entries queued
ahead of them, on a real Redis Cluster (the players' feeds on several nodes) and on one
Redis: every feed gets its own, the inbox gets every entry, a repeat adds nothing; and the
feed queues in its own script only with the inbox on its very client, on one Redis."""

from __future__ import annotations

import uuid

import pytest
from redis.asyncio import Redis, RedisCluster

from service.adapters.notification_feed import NotificationFeed
from service.adapters.webhooks import WebhookStore
from service.core.notifying.derive import notify
from service.core.ports.notifications import encode_notification

pytestmark = pytest.mark.anyio

PLAYERS = [f"player-{n}" for n in range(12)]  # enough to spread over the three masters


async def test_appends_every_players_notifications_after_queueing_them(either_redis: Redis) -> None:
    prefix = f"test-{uuid.uuid4().hex[:8]}:"
    feed = NotificationFeed(either_redis, prefix, retention=100)
    webhooks = WebhookStore(either_redis, prefix)
    by_player = {
        player: [notify(f"g{n}", "your_turn", v, 0, game="race") for v in (1, 2)]
        for n, player in enumerate(PLAYERS)
    }
    queued = [(p, n.kind, encode_notification(n)) for p, ns in by_player.items() for n in ns]
    try:
        added = await feed.append_many(by_player, lambda pipe: webhooks.queue_into(pipe, queued))
        assert added == 2 * len(PLAYERS)
        assert await either_redis.xlen(webhooks.inbox) == len(queued)
        for player, theirs in by_player.items():
            assert [e.notification for e in await feed.page(player, "0", 10)] == theirs
        assert await feed.append_many(by_player) == 0  # idempotent by id
        missing = await feed.missing_many({p: [n.id for n in ns] for p, ns in by_player.items()})
        assert not any(any(m) for m in missing.values())
    finally:
        for player in PLAYERS:
            await feed.clear(player)
        await either_redis.delete(webhooks.inbox)


async def test_queues_in_the_feeds_script_only_with_the_inbox_on_one_redis(
    either_redis: Redis,
) -> None:
    prefix = f"test-{uuid.uuid4().hex[:8]}:"
    feed = NotificationFeed(either_redis, prefix, retention=100)
    on_one_redis = not isinstance(either_redis, RedisCluster)
    assert feed.queues_with(WebhookStore(either_redis, prefix)) is on_one_redis
    apart = Redis.from_url("redis://127.0.0.1:6379/0")  # the inbox on another client
    try:
        elsewhere = WebhookStore(apart, prefix)
        assert not feed.queues_with(elsewhere)
        told = {PLAYERS[0]: [notify("g1", "your_turn", 1, 0, game="race")]}
        with pytest.raises(ValueError, match="not on this feed's Redis"):
            await feed.append_queued(told, elsewhere)
        assert await feed.page(PLAYERS[0], "0", 10) == []  # refused: nothing appended
    finally:
        await apart.aclose()
