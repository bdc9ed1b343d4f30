"""History over Redis and the archive: replay, audit, verification, rebuilds, repair and quarantine
(the API and the history commands of the CLI)."""

from __future__ import annotations

from redis.asyncio import Redis

from service.adapters.store.catalogue import stored_game_ids
from service.adapters.store.inspection import RedisKeyInspector
from service.adapters.store.redis_store import RedisEventStore
from service.adapters.store.side import Views
from service.bootstrap.clients import archived_reads, store
from service.facade.history_side import HistoryService
from service.history.archived_games import ArchiveBackedStore
from service.history.rebuild import RedisProjectionWriter
from service.history.repair import GameMaintenance
from service.shared.settings import Settings


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
