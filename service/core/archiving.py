"""Archiving: finished games leave Redis for the archive once `after_ms` have passed.

For each finished game, due when its last command was received (or it was created, for a
game over at creation) at least `after_ms` ago by the Redis clock:
1. snapshot its keys in one MULTI/EXEC; its hash chain must hold (a damaged game is left for
   `skald verify`), every command must be decided and no worker may hold its lease;
2. write the compressed record to the archive, read it back and check it decodes to the
   snapshot (an archive that fails here leaves the game in Redis, untouched);
3. delete its keys with a script that first checks the game is still the snapshot (same
   version, same last inbox entry): a command submitted meanwhile keeps the game in Redis,
   and the next run archives it again, over the stale record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import structlog

from service.core.pipeline.chain import first_broken_link
from service.core.ports.archive import ArchiveStore, HotGames, finished_at_ms
from service.core.ports.archive_record import ArchivedGame, decode_archive, encode_archive
from service.core.ports.records import StoredEvent
from service.shared.errors import ServiceError

log = structlog.get_logger("skald.archiver")

ArchiveStatus = Literal["archived", "not_due", "in_play", "missing", "changed", "failed"]


@dataclass
class ArchiveReport:
    """What one archiving run did, game by game."""

    archived: list[str] = field(default_factory=list)
    not_due: int = 0
    kept: dict[str, str] = field(default_factory=dict)  # game id -> why it stays in Redis


@dataclass(frozen=True)
class GameArchived:
    """One game's archiving: its status, why (when not archived) and the record's size."""

    status: ArchiveStatus
    detail: str = ""
    record_bytes: int = 0


class Archiver:
    """Moves finished games from Redis (`hot`) to `archive`."""

    def __init__(self, hot: HotGames, archive: ArchiveStore, after_ms: int) -> None:
        self.hot = hot
        self.archive = archive
        self.after_ms = after_ms

    async def run(self, game_ids: list[str] | None = None, force: bool = False) -> ArchiveReport:
        """Archive the finished games that are due (all of them, or those named); `force`
        archives finished games however recently they ended."""
        report = ArchiveReport()
        now = await self.hot.now_ms()
        if game_ids is None:
            # Only the games due are read whole: the rest cost one HMGET each.
            finished = await self.hot.finished_games()
            due = [g for g, at in finished.items() if force or now - at >= self.after_ms]
            report.not_due = len(finished) - len(due)
            game_ids = due
        for game_id in game_ids:
            outcome = await self.archive_game(game_id, None if force else now)
            if outcome.status == "archived":
                report.archived.append(game_id)
            elif outcome.status == "not_due":
                report.not_due += 1
            else:
                report.kept[game_id] = f"{outcome.status}: {outcome.detail}"
        return report

    async def archive_game(self, game_id: str, now_ms: int | None) -> GameArchived:
        """Archive one game if it is finished (and due at `now_ms`, unless None)."""
        try:
            snapshot = await self.hot.snapshot(game_id)
        except ServiceError as exc:
            return GameArchived("failed", exc.message)
        if snapshot is None:
            return GameArchived("missing", "no such game in Redis")
        game, hashes = snapshot
        refused = _not_archivable(game, hashes)
        if refused is not None:
            return GameArchived("in_play", refused)
        finished_at = finished_at_ms(game.last_inbox_id, game.meta.get("created", b"").decode())
        if now_ms is not None and now_ms - finished_at < self.after_ms:
            return GameArchived("not_due")
        record = encode_archive(game)
        try:
            await self.archive.put(game_id, record)
            stored = await self.archive.get(game_id)
        except ServiceError as exc:
            log.warning("archive_failed", game_id=game_id, error=exc.message)
            return GameArchived("failed", exc.message)
        if stored is None or _decoded(game_id, stored) != game:
            log.warning("archive_unverified", game_id=game_id)
            return GameArchived("failed", "the record read back differs from the one written")
        if not await self.hot.drop(game):
            return GameArchived("changed", "the game changed while it was archived: kept")
        log.info("game_archived", game_id=game_id, record_bytes=len(record))
        return GameArchived("archived", record_bytes=len(record))


def _decoded(game_id: str, stored: bytes) -> ArchivedGame | None:
    try:
        return decode_archive(game_id, stored)
    except ServiceError:
        return None


def _not_archivable(game: ArchivedGame, hashes: list[bytes]) -> str | None:
    """Why the snapshot must stay in Redis, or None when it can be archived."""
    if game.meta.get("st") != b"finished":
        return "the game is not over"
    if game.meta.get("cur", b"").decode() != game.last_inbox_id:
        return "commands still wait to be decided"
    if game.meta.get("v", b"").decode() != str(game.version):
        return "the head's version does not match its events"
    events = [
        StoredEvent(n, event.data, chain, event.command_id)
        for n, (event, chain) in enumerate(zip(game.events, hashes, strict=True), 1)
    ]
    broken = first_broken_link(game.game_id, events)
    if broken is not None:
        return f"the hash chain breaks at version {broken}: run skald verify"
    if events and events[-1].hash != game.meta.get("h"):
        return "the head's chain value does not match the last event's"
    return None
