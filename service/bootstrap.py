"""The composition root: the one place that builds Skald's object graph from its settings.

Every entrypoint takes its objects from here: the HTTP API and the CLI (`connect`, `history`),
the worker processes (`worker_graph`), and the tests (the same functions, on clients they
made themselves: fakeredis, a real Redis, a recording scheduler). Nothing else constructs a
store, a scheduler or a facade, so a change of wiring is a change to this file alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from redis import Redis as SyncRedis
from redis.asyncio import BlockingConnectionPool, Redis

from service.adapters.notifications import Notifier, Publisher
from service.adapters.rq_scheduler import DrainScheduler, RQScheduler
from service.adapters.store.records import RunnerLimits
from service.adapters.store.redis_store import RedisEventStore
from service.adapters.store.scripts import Scripts
from service.adapters.store.side import KnownTokens, Lobby, PendingIndex, Seats, Views
from service.adapters.store.tickets import StreamTickets
from service.core.pipeline.drain import Drainer
from service.core.pipeline.runner import DrainRunner
from service.core.pipeline.session import SessionCache
from service.facade.command_side import CommandSide
from service.facade.history_side import HistoryService
from service.facade.metas import GameMetas
from service.facade.read_side import ReadSide
from service.facade.skald import Skald
from service.read.history.catalogue import stored_game_ids
from service.read.history.rebuild import RedisProjectionWriter
from service.read.history.repair import GameMaintenance
from service.shared.settings import Settings, load_plugins

# The API's event-Redis pool. Blocking: past its size a request waits for a free connection,
# where the default pool failed it with "Too many connections" (a 503) as soon as a hundred
# requests were in flight at once (found by `skald bench`).
API_REDIS_CONNECTIONS = 256
API_REDIS_POOL_WAIT_S = 10.0
KNOWN_TOKENS_CACHED = 10_000  # games whose seat-token hashes the API keeps
GAME_METAS_CACHED = 10_000  # games whose fixed facts the API keeps


def runner_limits(settings: Settings) -> RunnerLimits:
    """How many drain runners may be scheduled at once, and how long a slot lasts unrenewed."""
    return RunnerLimits(settings.max_runners, int(settings.runner_slot_ttl_s * 1000))


def store(redis: Redis, settings: Settings, scripts: Scripts | None = None) -> RedisEventStore:
    """The event store on `redis`, under the settings' key prefix and runner limits."""
    return RedisEventStore(redis, settings.key_prefix, scripts, runner_limits(settings))


def scheduler(queue_redis: SyncRedis, settings: Settings) -> RQScheduler:
    """The RQ scheduler of drain runners on the queue Redis."""
    return RQScheduler(
        queue_redis, settings.queue_name, settings.key_prefix, settings.job_timeout_s
    )


def history(
    redis: Redis, settings: Settings, events: RedisEventStore | None = None
) -> HistoryService:
    """Replay, audit, fairness, verification, projection rebuilds, repair and quarantine over
    `redis`."""
    prefix = settings.key_prefix
    events = events or store(redis, settings)
    writer = RedisProjectionWriter(Views(redis, prefix, events.scripts))

    async def game_ids() -> list[str]:
        return await stored_game_ids(redis, prefix)

    return HistoryService(events, writer, game_ids, GameMaintenance(redis, prefix, events, writer))


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
    seats = Seats(redis, prefix, scripts)
    lobby = Lobby(redis, prefix)
    notifier = Notifier(redis, prefix)
    metas = GameMetas(events, GAME_METAS_CACHED)
    return Skald(
        settings,
        redis=redis,
        queue_redis=queue_redis,
        commands=CommandSide(settings, events, seats, lobby, notifier, drain_scheduler, metas),
        reads=ReadSide(settings, events, seats, lobby, notifier, metas),
        history=history(redis, settings, events),
        metas=metas,
        seats=seats,
        known_tokens=KnownTokens(seats.token_hashes, KNOWN_TOKENS_CACHED),
        notifier=notifier,
        store=events,
        tickets=StreamTickets(redis, prefix),
    )


async def connect(settings: Settings) -> Skald:
    """The facade on the configured Redis servers (connections open lazily, so this succeeds
    while Redis is down; `Skald.ping` tells readiness)."""
    if not settings.redis_url:
        raise ValueError("no Redis configured: set SKALD_REDIS_URL")
    load_plugins(settings)
    pool = BlockingConnectionPool.from_url(
        settings.redis_url, max_connections=API_REDIS_CONNECTIONS, timeout=API_REDIS_POOL_WAIT_S
    )
    queue_redis = SyncRedis.from_url(settings.queue_redis_url)
    return skald(
        settings, Redis(connection_pool=pool), scheduler(queue_redis, settings), queue_redis
    )


@dataclass
class WorkerGraph:
    """What one worker thread runs on: its clients, the store, the scheduler and the runner."""

    redis: Redis
    queue_redis: SyncRedis
    store: RedisEventStore
    pending: PendingIndex
    scheduler: RQScheduler
    drainer: Drainer
    runner: DrainRunner


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
    )
    return DrainRunner.configured(settings, events, drainer, drain_scheduler)


def worker_graph(settings: Settings) -> WorkerGraph:
    """A worker's object graph (clients connect lazily, on the loop where jobs run)."""
    if not settings.redis_url:
        raise ValueError("no Redis configured: set SKALD_REDIS_URL")
    redis = Redis.from_url(settings.redis_url, decode_responses=False)
    queue_redis = SyncRedis.from_url(settings.queue_redis_url)
    events = store(redis, settings)
    drain_scheduler = scheduler(queue_redis, settings)
    runner = drain_runner(settings, redis, events, drain_scheduler)
    return WorkerGraph(
        redis=redis,
        queue_redis=queue_redis,
        store=events,
        pending=PendingIndex(redis, settings.key_prefix, events.scripts),
        scheduler=drain_scheduler,
        drainer=runner.drainer,
        runner=runner,
    )
