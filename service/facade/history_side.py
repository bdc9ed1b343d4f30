"""The history operations behind the HTTP routes and the `skald` sub-commands, over one store."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from contracts.history import FairnessReport, GameVerification, ReplayFrame
from service.core.ports.event_store import GameMissing, HistoryStore
from service.core.ports.inspection import KeyInspector
from service.core.ports.records import is_game_id
from service.history.archived_games import ArchiveBackedStore
from service.history.disclosure import Audience
from service.history.fairness import fairness_report
from service.history.loading import StoredGame, read_game
from service.history.rebuild import (
    ProjectionWriter,
    RebuildResult,
    rebuild_projections,
)
from service.history.record import GameHistory, decode_history
from service.history.repair import GameMaintenance, RepairReport
from service.history.replay import replay_frame
from service.history.verify import FROZEN_GRACE_S, verify_game, verify_games

GameIds = Callable[[], Awaitable[list[str]]]


class HistoryService:
    """Replay, audit, fairness, verification and projection rebuilds of stored games.

    `writer` and `game_ids` are needed only to rebuild projections and to visit every game,
    `maintenance` to check a game's keys, repair and quarantine; `service.bootstrap.history`
    provides them.
    """

    def __init__(
        self,
        store: HistoryStore,
        writer: ProjectionWriter | None = None,
        game_ids: GameIds | None = None,
        maintenance: GameMaintenance | None = None,
    ) -> None:
        self.store = store
        self.writer = writer
        self._game_ids = game_ids
        self.maintenance = maintenance
        self.inspector: KeyInspector | None = maintenance.inspector if maintenance else None

    async def stored(self, game_id: str) -> StoredGame:
        """A game's stored record at its head, not yet decoded: GameMissing for none, and
        GameDamaged or GameQuarantined, as every other read says, when that is why it is
        missing."""
        if not is_game_id(game_id):
            raise GameMissing(game_id)
        try:
            return await read_game(self.store, game_id)
        except GameMissing:
            await self.store.absent(game_id)  # raises why: quarantined, damaged or missing

    async def history(self, game_id: str) -> GameHistory:
        """A game's decoded history at its head (GameMissing, RulesVersionMismatch...)."""
        return decode_history(await self.stored(game_id))

    async def replay(
        self, game_id: str, audience: Audience, at: int | None = None, seat: int | None = None
    ) -> ReplayFrame:
        """The game at version `at` (the last by default) as `seat`'s view or the public."""
        return replay_frame(await self.history(game_id), audience, at, seat)

    async def fairness(self, game_id: str) -> FairnessReport:
        """The seed check ("pending" until the game ends; public either way)."""
        return fairness_report(await self.history(game_id))

    async def verify(self, game_id: str) -> GameVerification:
        """Every check of one game."""
        if not is_game_id(game_id):
            raise GameMissing(game_id)
        return await verify_game(self.store, game_id, self.inspector)

    async def game_ids(self) -> list[str]:
        """Every stored game's id."""
        if self._game_ids is None:
            raise RuntimeError("this HistoryService was built without a way to list games")
        return await self._game_ids()

    async def every_game_id(self) -> list[str]:
        """Every game's id: those in Redis and, with cold storage, those in the archive."""
        in_redis = await self.game_ids()
        if not isinstance(self.store, ArchiveBackedStore):
            return in_redis
        return sorted(set(in_redis) | set(await self.store.archive.game_ids()))

    async def verify_all(
        self,
        game_ids: list[str],
        on_done: Callable[[GameVerification], None] | None = None,
        grace_s: float = FROZEN_GRACE_S,
    ) -> list[GameVerification]:
        """Verify the given games, reporting each as it is done (frozen: waiting `grace_s`)."""
        return await verify_games(self.store, game_ids, on_done, self.inspector, grace_s)

    async def rebuild(self, game_id: str) -> RebuildResult:
        """Recompute and store one game's projections from its events."""
        if self.writer is None:
            raise RuntimeError("this HistoryService was built without a projection writer")
        return await rebuild_projections(self.store, self.writer, game_id)

    def _maintenance(self, game_id: str) -> GameMaintenance:
        if self.maintenance is None:
            raise RuntimeError("this HistoryService was built without access to the keys")
        if not is_game_id(game_id):
            raise GameMissing(game_id)
        return self.maintenance

    async def repair(self, game_id: str) -> RepairReport:
        """Rebuild what the events can rebuild of a damaged game; name what cannot be."""
        return await self._maintenance(game_id).repair(game_id)

    async def quarantine(self, game_id: str, reason: str) -> bool:
        """Take a game out of service (False: it already was)."""
        return await self._maintenance(game_id).quarantine(game_id, reason)

    async def release(self, game_id: str) -> bool:
        """Put a quarantined game back in service (False: it was not quarantined)."""
        return await self._maintenance(game_id).release(game_id)
