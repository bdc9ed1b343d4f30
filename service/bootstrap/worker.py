"""A worker process's graph: the drain runner and what its sweeps use."""

from __future__ import annotations

from dataclasses import dataclass

from redis import Redis as SyncRedis
from redis.asyncio import Redis

from service.adapters.notification_feed import (
    NotifyMarks,
)
from service.adapters.notifications import Publisher
from service.adapters.rq_scheduler import RQScheduler
from service.adapters.store.deadlines import Deadlines
from service.adapters.store.open_rooms import OpenRooms
from service.adapters.store.player_seats import PlayerSeats
from service.adapters.store.redis_store import RedisEventStore
from service.adapters.store.side import Lobby, PendingIndex, Views
from service.bootstrap.clients import event_client, queue_client, scheduler, store
from service.bootstrap.notifications import notification_projector
from service.bootstrap.ratings import rating_ledger
from service.core.notifying.projector import NotificationProjector
from service.core.pipeline.drain import Drainer
from service.core.pipeline.runner import DrainRunner
from service.core.pipeline.session import SessionCache
from service.core.ports.scheduling import DrainScheduler
from service.core.ratings.ledger import RatingLedger
from service.shared.settings import Settings


@dataclass
class WorkerGraph:
    """What one worker thread runs on: its clients, the store, the scheduler and the runner,
    the ratings ledger, the notification projector and the open rooms' index."""

    redis: Redis
    queue_redis: SyncRedis
    store: RedisEventStore
    pending: PendingIndex
    deadlines: Deadlines
    scheduler: RQScheduler
    drainer: Drainer
    runner: DrainRunner
    ledger: RatingLedger
    notify_projector: NotificationProjector
    open_rooms: OpenRooms


def drain_runner(
    settings: Settings,
    redis: Redis,
    events: RedisEventStore,
    drain_scheduler: DrainScheduler,
) -> DrainRunner:
    """A drain runner (with its drainer and its cache of game sessions) over `events`."""
    prefix = settings.key_prefix
    drainer = Drainer(
        store=events,
        views=Views(redis, prefix, events.scripts),
        lobby=Lobby(redis, prefix),
        publisher=Publisher(redis, prefix),
        cache=SessionCache(settings.state_cache_size),
        batch_size=settings.batch_size,
        lease_ttl_ms=int(settings.lease_ttl_s * 1000),
        deadlines=Deadlines(redis, prefix),
        on_finished=rating_ledger(redis, settings, events).game_finished,
        marks=NotifyMarks(redis, prefix),
        game_over=PlayerSeats(redis, prefix, events.scripts).game_over,
    )
    return DrainRunner.configured(settings, events, drainer, drain_scheduler)


def worker_graph(settings: Settings) -> WorkerGraph:
    """A worker's object graph (clients connect lazily, on the loop where jobs run)."""
    if not settings.redis_url:
        raise ValueError("no Redis configured: set SKALD_REDIS_URL")
    redis = event_client(settings)
    queue_redis = queue_client(settings)
    events = store(redis, settings)
    drain_scheduler = scheduler(queue_redis, settings)
    runner = drain_runner(settings, redis, events, drain_scheduler)
    return WorkerGraph(
        redis=redis,
        queue_redis=queue_redis,
        store=events,
        pending=PendingIndex(redis, settings.key_prefix, events.scripts, settings.drain_shards),
        deadlines=Deadlines(redis, settings.key_prefix),
        scheduler=drain_scheduler,
        drainer=runner.drainer,
        runner=runner,
        ledger=rating_ledger(redis, settings, events),
        # Its catch-up marks any game the sweeper visits whose notifications lag its head.
        notify_projector=notification_projector(settings, redis, events),
        open_rooms=OpenRooms(redis, settings.key_prefix),
    )
