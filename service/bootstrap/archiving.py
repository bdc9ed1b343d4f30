"""The archiver's graph: the worker's archiver thread and `skald archive`."""

from __future__ import annotations

from dataclasses import dataclass

from redis.asyncio import Redis

from service.adapters.archive.redis_game import HotGames
from service.bootstrap.clients import archive, archived_reads, event_client, store
from service.bootstrap.ratings import catch_up_ratings, rating_ledger
from service.core.archiving import Archiver, ArchiveReport
from service.core.ports.archive import ArchiveStore
from service.core.ratings.ledger import RatingLedger
from service.shared.settings import Settings


def archiver(
    redis: Redis, settings: Settings, archive_store: ArchiveStore | None = None
) -> Archiver:
    """Moves finished games due for cold storage from `redis` to the archive."""
    return Archiver(
        HotGames(redis, settings.key_prefix),
        archive_store or archive(settings),
        int(settings.archive_after_s * 1000),
    )


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
