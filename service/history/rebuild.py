"""Rebuilding projections from events: every seat's view, the public view and the turns.

The projections are encoded by service.core.projections, exactly as the worker encodes them, from
the state folded out of the game's events at its head, and written unless a worker has
meanwhile stored newer ones: a rebuild never rolls a live game's views back. The lobby index is
left alone: it depends on the seats taken, which no event records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from domain.table import Table, fold
from service.core.ports.event_store import HistoryStore
from service.core.ports.views import Views
from service.core.projections import table_views
from service.history.loading import read_game
from service.history.record import GameHistory, decode_history
from service.shared.errors import ServiceError

RebuildStatus = Literal["rebuilt", "newer", "failed"]


class ProjectionWriter(Protocol):
    """Where rebuilt projections go."""

    async def write(self, game_id: str, version: int, fields: dict[str, bytes]) -> bool:
        """Store projections at `version` unless newer ones are there; True when written."""
        ...


class RedisProjectionWriter:
    """Writes a game's views hash on Redis through the workers' own writer, `Views`: a
    rebuild rewrites the stored version too, which mends damaged views, and never rolls back
    newer ones a worker stored meanwhile."""

    def __init__(self, views: Views) -> None:
        self.views = views

    async def write(self, game_id: str, version: int, fields: dict[str, bytes]) -> bool:
        """Store projections at `version` unless newer ones are there; True when written."""
        return await self.views.write(game_id, version, fields, repair=True)


@dataclass(frozen=True)
class RebuildResult:
    """What a rebuild did to one game's projections."""

    game_id: str
    status: RebuildStatus
    version: int
    detail: str


def fresh_projections(history: GameHistory) -> dict[str, bytes]:
    """Every projection of the game at its last version, encoded as the worker encodes them:
    from the table (domain.table) folded over the stored events, so the life cycle they record
    (the phase, the deadlines, forfeited seats) is in the rebuilt turns as in the stored ones."""
    meta = history.meta
    table = fold(Table.new(history.game, meta.seats, meta.rules_version, b""), history.events)
    table.version, table.finished = history.head.version, history.head.finished
    return table_views(history.codec, history.game_id, table)


async def rebuild_projections(
    store: HistoryStore, writer: ProjectionWriter, game_id: str
) -> RebuildResult:
    """Recompute one game's projections from its events and store them."""
    try:
        history = decode_history(await read_game(store, game_id))
        fields = fresh_projections(history)
    except ServiceError as exc:
        return RebuildResult(game_id, "failed", 0, exc.message)
    except Exception as exc:  # the rules failing on stored events: report, go on with others
        return RebuildResult(game_id, "failed", 0, f"the rules fail on this game: {exc!r}")
    version = history.last_version
    if await writer.write(game_id, version, fields):
        return RebuildResult(game_id, "rebuilt", version, f"{len(fields)} projections written")
    return RebuildResult(
        game_id, "newer", version, "a worker stored newer projections meanwhile: kept"
    )
