"""Players' notifications: the feed, the facade's side of it, the projector (the worker's) and the
rebuild of every feed (`skald notifications`)."""

from __future__ import annotations

from redis.asyncio import Redis

from service.adapters.notification_feed import (
    GameFacts,
    NotificationFeed,
    NotifiedCursors,
    NotifyMarks,
    PlayerStreamTickets,
    Presence,
    Reminders,
)
from service.adapters.notifications import Notifier
from service.adapters.notify_survey import NotifySurvey
from service.adapters.store.catalogue import stored_game_ids
from service.adapters.store.players import Players
from service.adapters.store.redis_store import RedisEventStore
from service.adapters.store.side import Seats
from service.adapters.webhooks import WebhookStore
from service.bootstrap.clients import archived_reads, store
from service.core.notifying.derive import FollowedGames
from service.core.notifying.projector import NotificationProjector
from service.core.notifying.rebuild import FeedsRebuilt, rebuild_feeds
from service.facade.notification_side import NotificationSide
from service.facade.token_sessions import TokenSessions
from service.shared.settings import Settings

# Game sessions the notification projector keeps (it folds every game it projects).
NOTIFY_SESSIONS_CACHED = 1024


def notification_feed(redis: Redis, settings: Settings) -> NotificationFeed:
    """Players' notification feeds, capped at `notification_retention` each."""
    return NotificationFeed(redis, settings.key_prefix, settings.notification_retention)


def notification_side(
    settings: Settings, redis: Redis, notifier: Notifier, sessions: TokenSessions
) -> NotificationSide:
    """The facade's reads of players' notification feeds."""
    prefix = settings.key_prefix
    feed = notification_feed(redis, settings)
    tickets = PlayerStreamTickets(redis, prefix)
    presence = Presence(redis, prefix)
    return NotificationSide(settings, feed, notifier, tickets, presence, sessions)


def notification_projector(
    settings: Settings, redis: Redis, events: RedisEventStore
) -> NotificationProjector:
    """The projector that turns games' events into players' notifications."""
    prefix = settings.key_prefix
    marks = NotifyMarks(redis, prefix)
    return NotificationProjector(
        store=events,
        seats=Seats(redis, prefix, events.scripts),
        feed=notification_feed(redis, settings),
        cursors=NotifiedCursors(redis, prefix),
        marks=marks,
        reminders=Reminders(redis, prefix),
        facts=GameFacts(redis, prefix),
        cache=FollowedGames(NOTIFY_SESSIONS_CACHED),
        webhooks=WebhookStore(redis, prefix),
        survey=NotifySurvey(redis, prefix, marks.key),
    )


async def rebuild_notifications(
    redis: Redis, settings: Settings, game_ids: list[str] | None = None
) -> FeedsRebuilt:
    """Rebuild from events the notification feeds of the players of `game_ids` (of every
    game in Redis or archived when None), games in the archive read from it; nothing is
    queued for webhook delivery again."""
    events = archived_reads(store(redis, settings), settings)
    prefix = settings.key_prefix
    projector = NotificationProjector(
        store=events,
        seats=events,
        feed=notification_feed(redis, settings),
        cursors=NotifiedCursors(redis, prefix),
        marks=NotifyMarks(redis, prefix),
        reminders=Reminders(redis, prefix),
        facts=GameFacts(redis, prefix),
        cache=FollowedGames(NOTIFY_SESSIONS_CACHED),
    )
    if game_ids is None:
        hot = await stored_game_ids(redis, prefix)
        game_ids = sorted(set(hot) | set(await events.archive.game_ids()))
    return await rebuild_feeds(projector, Players(redis, prefix), game_ids)
