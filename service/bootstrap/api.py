"""The application facade the HTTP API and the CLI call (`connect`)."""

from __future__ import annotations

from redis import Redis as SyncRedis
from redis.asyncio import BlockingConnectionPool, Redis

from service.adapters.address_limits import AddressCounters
from service.adapters.notification_feed import (
    NotifyMarks,
)
from service.adapters.notifications import Notifier
from service.adapters.ratings.store import RatingsStore
from service.adapters.redis_clients import POOL_WAIT_S
from service.adapters.store.deadlines import Deadlines
from service.adapters.store.open_rooms import OpenRooms
from service.adapters.store.player_seats import PlayerSeats
from service.adapters.store.players import Players
from service.adapters.store.scripts import Scripts
from service.adapters.store.side import Lobby, Seats
from service.adapters.store.tickets import StreamTickets
from service.bootstrap.clients import archived_reads, event_client, queue_client, scheduler, store
from service.bootstrap.history_service import history
from service.bootstrap.notifications import notification_side
from service.bootstrap.webhooks import webhook_admin
from service.core.ports.scheduling import DrainScheduler
from service.facade.address_limits import AddressLimits
from service.facade.command_side import CommandSide
from service.facade.known_tokens import KnownTokens
from service.facade.metas import GameMetas
from service.facade.player_side import PlayerSide
from service.facade.rating_side import RatingSide
from service.facade.read_side import ReadSide
from service.facade.skald import Skald
from service.facade.token_sessions import TokenSessions
from service.shared.settings import Settings, load_plugins

KNOWN_TOKENS_CACHED = 10_000  # games whose seat-token hashes the API keeps


GAME_METAS_CACHED = 10_000  # games whose fixed facts the API keeps


def skald(
    settings: Settings,
    redis: Redis,
    drain_scheduler: DrainScheduler,
    queue_redis: SyncRedis | None = None,
) -> Skald:
    """The application facade on `redis` and a scheduler (the queue Redis, when given, is
    pinged for readiness and closed with the facade)."""
    prefix = settings.key_prefix
    scripts = Scripts(redis)
    events = store(redis, settings, scripts)
    records = archived_reads(events, settings)  # Redis first, then the archive
    seats = Seats(redis, prefix, scripts)
    lobby = Lobby(redis, prefix)
    notifier = Notifier(redis, prefix)
    metas = GameMetas(records, GAME_METAS_CACHED)
    commands = CommandSide(
        settings,
        records,
        seats,
        lobby,
        notifier,
        drain_scheduler,
        metas,
        deadlines=Deadlines(redis, prefix),
    )
    reads = ReadSide(settings, records, seats, lobby, notifier, metas)
    sessions = TokenSessions(Players(redis, prefix), notifier)
    return Skald(
        settings,
        redis=redis,
        queue_redis=queue_redis,
        commands=commands,
        reads=reads,
        history=history(redis, settings, records),
        metas=metas,
        seats=seats,
        known_tokens=KnownTokens(records.token_hashes, KNOWN_TOKENS_CACHED),
        notifier=notifier,
        store=events,
        tickets=StreamTickets(redis, prefix),
        ratings=RatingSide(RatingsStore(redis, prefix), Players(redis, prefix)),
        players=PlayerSide(
            commands,
            reads,
            Players(redis, prefix, scripts),
            PlayerSeats(redis, prefix, scripts),
            OpenRooms(redis, prefix),
            NotifyMarks(redis, prefix),
        ),
        sessions=sessions,
        notifications=notification_side(settings, redis, notifier, sessions),
        webhooks=webhook_admin(settings, redis),
        address_limits=AddressLimits(settings, AddressCounters(redis, prefix)),
    )


async def connect(settings: Settings) -> Skald:
    """The facade on the configured Redis servers (connections open lazily, so this succeeds
    while Redis is down; `Skald.ping` tells readiness)."""
    if not settings.redis_url:
        raise ValueError("no Redis configured: set SKALD_REDIS_URL")
    load_plugins(settings)
    if settings.redis_cluster:
        cluster = event_client(settings)
        queue_redis = queue_client(settings)
        return skald(settings, cluster, scheduler(queue_redis, settings), queue_redis)
    queue_redis = queue_client(settings)
    # Blocking: past its size a request waits for a free connection, where the default pool
    # failed it with "Too many connections" (a 503) as soon as a hundred requests were in
    # flight at once (found by `skald bench`).
    pool = BlockingConnectionPool.from_url(
        settings.redis_url, max_connections=settings.redis_connections, timeout=POOL_WAIT_S
    )
    return skald(
        settings, Redis(connection_pool=pool), scheduler(queue_redis, settings), queue_redis
    )
