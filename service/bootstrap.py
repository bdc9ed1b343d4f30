"""The composition root: the one place that builds Skald's object graph from its settings.

Every entrypoint takes its objects from here: the HTTP API and the CLI (`connect`, `history`),
the worker processes (`worker_graph`), and the tests (the same functions, on clients they
made themselves: fakeredis, a real Redis, a recording scheduler). Nothing else constructs a
store, a scheduler or a facade, so a change of wiring is a change to this file alone.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import httpx
from redis import Redis as SyncRedis
from redis.asyncio import BlockingConnectionPool, Redis

from service.adapters.address_limits import AddressCounters
from service.adapters.archive.directory_archive import DirectoryArchive
from service.adapters.archive.postgres_archive import PostgresArchive
from service.adapters.archive.redis_game import HotGames
from service.adapters.embedded_redis import EmbeddedRedis
from service.adapters.notification_feed import (
    GameFacts,
    NotificationFeed,
    NotifiedCursors,
    NotifyMarks,
    PlayerStreamTickets,
    Presence,
    Reminders,
)
from service.adapters.notifications import Notifier, Publisher
from service.adapters.notify_survey import NotifySurvey
from service.adapters.ratings.store import RatingsStore
from service.adapters.redis_clients import POOL_WAIT_S, event_redis
from service.adapters.rq_scheduler import RQScheduler
from service.adapters.store.catalogue import stored_game_ids
from service.adapters.store.deadlines import Deadlines
from service.adapters.store.inspection import RedisKeyInspector
from service.adapters.store.open_rooms import OpenRooms
from service.adapters.store.player_seats import PlayerSeats
from service.adapters.store.players import Players
from service.adapters.store.redis_store import RedisEventStore, redis_version_problem_at
from service.adapters.store.replica_wait import ReplicaWait
from service.adapters.store.scripts import Scripts
from service.adapters.store.side import Lobby, PendingIndex, Seats, Views
from service.adapters.store.tickets import StreamTickets
from service.adapters.webhook_hosts import (
    GuardedPoster,
    HostGuard,
    PublicOnlyResolver,
    Resolver,
    SystemResolver,
)
from service.adapters.webhook_http import AiohttpPoster, HttpxPoster, new_session
from service.adapters.webhooks import WebhookStore
from service.core.archiving import Archiver, ArchiveReport
from service.core.notifying.dispatch import Dispatcher
from service.core.notifying.projector import NotificationProjector
from service.core.notifying.rebuild import FeedsRebuilt, rebuild_feeds
from service.core.pipeline.drain import Drainer
from service.core.pipeline.runner import DrainRunner
from service.core.pipeline.session import SessionCache
from service.core.ports.archive import ArchiveStore
from service.core.ports.records import RunnerLimits
from service.core.ports.scheduling import DrainScheduler
from service.core.ports.webhooks import Poster
from service.core.ratings.ledger import LedgerReport, RatingLedger
from service.facade.address_limits import AddressLimits
from service.facade.command_side import CommandSide
from service.facade.history_side import HistoryService
from service.facade.known_tokens import KnownTokens
from service.facade.metas import GameMetas
from service.facade.notification_side import NotificationSide
from service.facade.player_side import PlayerSide
from service.facade.rating_side import RatingSide
from service.facade.read_side import ReadSide
from service.facade.skald import Skald
from service.facade.token_sessions import TokenSessions
from service.facade.webhook_side import WebhookAdmin
from service.history.archived_games import ArchiveBackedStore
from service.history.rebuild import RedisProjectionWriter
from service.history.repair import GameMaintenance
from service.shared.settings import Settings, load_plugins

KNOWN_TOKENS_CACHED = 10_000  # games whose seat-token hashes the API keeps
GAME_METAS_CACHED = 10_000  # games whose fixed facts the API keeps


def runner_limits(settings: Settings) -> RunnerLimits:
    """How many drain runners may be scheduled at once, and how long a slot lasts unrenewed."""
    return RunnerLimits(
        settings.max_runners, int(settings.runner_slot_ttl_s * 1000), settings.drain_shards
    )


def event_client(settings: Settings) -> Redis:
    """A client of the event data: one Redis, or a Redis Cluster with `redis_cluster`."""
    if not settings.redis_url:
        raise ValueError("no Redis configured: set SKALD_REDIS_URL")
    if settings.redis_cluster and not settings.queue_url:
        raise ValueError("on a Redis Cluster the RQ queue needs its own Redis: set SKALD_QUEUE_URL")
    # On a cluster, past `redis_connections` calls in flight a call waits for a turn, where
    # redis-py's own pool failed it at once (a 503 past about 100 requests per master).
    return event_redis(
        settings.redis_url,
        settings.redis_cluster,
        settings.redis_connections,
        POOL_WAIT_S,
        decode_responses=False,
    )


def embedded_redis(settings: Settings) -> EmbeddedRedis:
    """A redis-server of Skald's own over the data directory (started as a context manager),
    when no Redis is configured."""
    return EmbeddedRedis(settings.data_dir)


def queue_client(settings: Settings) -> SyncRedis:
    """A client of the RQ queue's Redis (synchronous, as RQ is)."""
    return SyncRedis.from_url(settings.queue_redis_url)


def replica_wait(settings: Settings) -> ReplicaWait:
    """How many replicas must hold a command before it is acknowledged."""
    return ReplicaWait(settings.wait_replicas, settings.wait_timeout_ms)


def store(redis: Redis, settings: Settings, scripts: Scripts | None = None) -> RedisEventStore:
    """The event store on `redis`, under the settings' key prefix and runner limits."""
    return RedisEventStore(
        redis, settings.key_prefix, scripts, runner_limits(settings), replica_wait(settings)
    )


def scheduler(queue_redis: SyncRedis, settings: Settings) -> RQScheduler:
    """The RQ scheduler of drain runners on the queue Redis."""
    return RQScheduler(
        queue_redis, settings.queue_name, settings.key_prefix, settings.job_timeout_s
    )


def archive(settings: Settings) -> ArchiveStore:
    """Where finished games go once they leave Redis: PostgreSQL at `archive_url`, else a
    directory under the data directory."""
    if settings.archive_url:
        return PostgresArchive(settings.archive_url)
    return DirectoryArchive(Path(settings.data_dir) / "archive")


def archived_reads(
    events: RedisEventStore, settings: Settings, archive_store: ArchiveStore | None = None
) -> ArchiveBackedStore[RedisEventStore]:
    """The store that reads games from Redis and, once archived, from the archive."""
    return ArchiveBackedStore(events, archive_store or archive(settings))


def archiver(
    redis: Redis, settings: Settings, archive_store: ArchiveStore | None = None
) -> Archiver:
    """Moves finished games due for cold storage from `redis` to the archive."""
    return Archiver(
        HotGames(redis, settings.key_prefix),
        archive_store or archive(settings),
        int(settings.archive_after_s * 1000),
    )


def history(
    redis: Redis,
    settings: Settings,
    events: RedisEventStore | ArchiveBackedStore[RedisEventStore] | None = None,
) -> HistoryService:
    """Replay, audit, fairness, verification, projection rebuilds, repair and quarantine over
    `redis`, and over the archive for games archived."""
    prefix = settings.key_prefix
    if not isinstance(events, ArchiveBackedStore):
        events = archived_reads(events or store(redis, settings), settings)
    writer = RedisProjectionWriter(Views(redis, prefix, events.hot.scripts))

    async def game_ids() -> list[str]:
        return await stored_game_ids(redis, prefix)

    keys = RedisKeyInspector(redis, prefix, settings.drain_shards)
    maintenance = GameMaintenance(keys, events, writer)
    return HistoryService(events, writer, game_ids, maintenance)


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


def rating_ledger(
    redis: Redis,
    settings: Settings,
    events: RedisEventStore | ArchiveBackedStore[RedisEventStore] | None = None,
) -> RatingLedger:
    """The ratings ledger on `redis`: finished games read from Redis, or the archive once
    archived; their results logged and folded into ratings (docs/ratings.md)."""
    if not isinstance(events, ArchiveBackedStore):
        events = archived_reads(events or store(redis, settings), settings)
    return RatingLedger(events, RatingsStore(redis, settings.key_prefix))


async def rebuild_ratings(
    events: ArchiveBackedStore[RedisEventStore], settings: Settings, from_games: bool = False
) -> LedgerReport:
    """Fold the ratings again from their log, after logging every finished game (in Redis or
    archived) missing from it; `from_games`: the log too is dropped and rebuilt from the games."""
    redis = events.hot.redis
    hot = await stored_game_ids(redis, settings.key_prefix)
    game_ids = sorted(set(hot) | set(await events.archive.game_ids()))
    return await rating_ledger(redis, settings, events).rebuild(game_ids, from_games)


async def catch_up_ratings(
    redis: Redis, settings: Settings, ledger: RatingLedger | None = None, owner: str = ""
) -> LedgerReport:
    """Log the finished games in Redis that no worker logged yet, and fold; with `owner`,
    only if no other worker claimed this `ratings_catch_up_s` interval."""
    ledger = ledger or rating_ledger(redis, settings)
    interval_ms = int(settings.ratings_catch_up_s * 1000)
    claims = RatingsStore(redis, settings.key_prefix)
    if owner and not await claims.claim_catch_up(owner, interval_ms):
        return LedgerReport()
    finished = await HotGames(redis, settings.key_prefix).finished_games()
    return await ledger.catch_up(sorted(finished))


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
        cache=SessionCache(NOTIFY_SESSIONS_CACHED),
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
        cache=SessionCache(NOTIFY_SESSIONS_CACHED),
    )
    if game_ids is None:
        hot = await stored_game_ids(redis, prefix)
        game_ids = sorted(set(hot) | set(await events.archive.game_ids()))
    return await rebuild_feeds(projector, Players(redis, prefix), game_ids)


def webhook_store(redis: Redis, settings: Settings) -> WebhookStore:
    """Webhook endpoints, their delivery queues and dead letters."""
    return WebhookStore(redis, settings.key_prefix)


def host_guard(settings: Settings, resolver: Resolver | None = None) -> HostGuard:
    """What refuses webhook endpoints on non-public addresses (names resolved by `resolver`,
    the system's by default), unless `webhook_allow_private`."""
    return HostGuard(resolver or SystemResolver(), settings.webhook_allow_private)


def webhook_admin(
    settings: Settings, redis: Redis, resolver: Resolver | None = None
) -> WebhookAdmin:
    """The operator's webhook operations (API and CLI)."""
    return WebhookAdmin(settings, webhook_store(redis, settings), host_guard(settings, resolver))


def dispatcher(
    settings: Settings,
    redis: Redis,
    client: httpx.AsyncClient | Poster,
    consumer: str,
    resolver: Resolver | None = None,
) -> Dispatcher:
    """A webhook dispatcher over `redis`, delivering with `client` (an httpx client, or a
    `Poster` such as the dispatcher process's aiohttp one), each endpoint's host checked
    again before each attempt."""
    poster = HttpxPoster(client) if isinstance(client, httpx.AsyncClient) else client
    # The dispatcher process's connector checks each name's addresses as it resolves them.
    names_checked = isinstance(poster, AiohttpPoster) and poster.names_checked
    return Dispatcher(
        webhook_store(redis, settings),
        Presence(redis, settings.key_prefix),
        GuardedPoster(poster, host_guard(settings, resolver), resolve_names=not names_checked),
        settings.webhook_retry_delays,
        settings.webhook_timeout_s,
        consumer,
        linger_ms=settings.webhook_linger_ms,
    )


# The archiver (a worker's thread, and `skald archive`).


@dataclass
class ArchivingGraph:
    """What archiving runs on: the event client, the archive, the archiver and the ratings
    ledger (finished games are rated before they leave Redis: docs/ratings.md)."""

    settings: Settings
    redis: Redis
    archive: ArchiveStore
    archiver: Archiver
    ledger: RatingLedger

    async def claim_run(self, owner: str, interval_ms: int) -> bool:
        """Claim this interval's run for `owner` (one worker per interval archives)."""
        return await self.archiver.hot.claim_run(owner, interval_ms)

    async def rate_and_archive(
        self, game_ids: list[str] | None = None, force: bool = False
    ) -> ArchiveReport:
        """Rate the finished games no worker rated yet, then archive those due (or named;
        `force`: due or not)."""
        await catch_up_ratings(self.redis, self.settings, self.ledger)
        return await self.archiver.run(game_ids, force=force)

    async def close(self) -> None:
        """Close the archive's and Redis's connections."""
        await self.archive.close()
        await self.redis.aclose()


def archiving_graph(settings: Settings) -> ArchivingGraph:
    """The archiver's object graph (clients connect lazily)."""
    redis = event_client(settings)
    archive_store = archive(settings)
    games = archived_reads(store(redis, settings), settings, archive_store)
    return ArchivingGraph(
        settings,
        redis,
        archive_store,
        archiver(redis, settings, archive_store),
        rating_ledger(redis, settings, games),
    )


# The webhook dispatcher process.


@contextlib.asynccontextmanager
async def dispatcher_graph(settings: Settings, consumer: str) -> AsyncIterator[Dispatcher]:
    """The dispatcher process's dispatcher: aiohttp posting through a connector that resolves
    public addresses only (unless private ones are allowed), over the event client."""
    redis = event_client(settings)  # one Redis, or the cluster the settings name
    try:
        resolver = PublicOnlyResolver(settings.webhook_allow_private)
        async with new_session(resolver=resolver) as session:
            yield dispatcher(settings, redis, AiohttpPoster(session, names_checked=True), consumer)
    finally:
        await redis.aclose()


# The worker process's checks.


def redis_problem(settings: Settings) -> str | None:
    """Why the configured event Redis cannot serve Skald; None when it can, or when it does
    not answer yet (the worker then waits for it like after any outage)."""
    return redis_version_problem_at(settings.redis_url)
