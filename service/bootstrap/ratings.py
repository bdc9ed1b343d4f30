"""The ratings ledger, and its rebuild and catch-up (the worker, the archiver and
`skald rebuild`)."""

from __future__ import annotations

from redis.asyncio import Redis

from service.adapters.archive.redis_game import HotGames
from service.adapters.ratings.store import RatingsStore
from service.adapters.store.catalogue import stored_game_ids
from service.adapters.store.redis_store import RedisEventStore
from service.bootstrap.clients import archived_reads, store
from service.core.ratings.ledger import LedgerReport, RatingLedger
from service.history.archived_games import ArchiveBackedStore
from service.shared.settings import Settings


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
