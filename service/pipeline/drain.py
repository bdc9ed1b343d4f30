"""One game's turn in a drain runner, in three Redis round trips: take the lease with the head
and the waiting commands (`open_turn`), commit one batch with its projections and give the lease
back in the same step (which puts the game back in the ready set if more waits), notify.

One batch per turn: busy games do not starve quiet ones, and each batch re-reads the inbox so
it carries whatever piled up while the game waited its turn.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Literal

import structlog

from service.notify import Publisher
from service.pipeline.apply import plan_batch
from service.pipeline.session import GameSession, SessionCache, load_session
from service.projections import encode_views
from service.store.protocol import EventStore, LeaseLost, VersionConflict
from service.store.records import Batch, Turn
from service.store.side import Lobby, Views

log = structlog.get_logger("skald.worker")

DrainStatus = Literal["applied", "idle", "busy", "lease_lost"]


@dataclass(frozen=True)
class DrainReport:
    """What one game's turn did; `put_back` when the game went back to the ready set."""

    game_id: str
    status: DrainStatus
    commands: int = 0
    version: int = 0
    put_back: bool = False


class Drainer:
    """Applies a game's waiting commands, one batch per call (the runner picks the game)."""

    def __init__(
        self,
        store: EventStore,
        views: Views | None,
        lobby: Lobby | None,
        publisher: Publisher | None,
        cache: SessionCache,
        batch_size: int,
        lease_ttl_ms: int,
    ) -> None:
        self.store = store
        self.views = views
        self.lobby = lobby
        self.publisher = publisher
        self.cache = cache
        self.batch_size = batch_size
        self.lease_ttl_ms = lease_ttl_ms

    async def drain(self, game_id: str) -> DrainReport:
        """Apply up to one batch of the game's waiting commands; put the game back if more wait."""
        # Lease, head and the inbox batch in one round trip.
        turn = await self.store.open_turn(game_id, self.lease_ttl_ms, self.batch_size)
        if turn is None:
            # Another runner holds the game; it puts the game back when it releases the lease.
            return DrainReport(game_id, "busy")
        put_back: bool | None = None  # set when the commit gave the lease back itself
        try:
            report, put_back = await self._apply_batch(game_id, turn)
        except (LeaseLost, VersionConflict) as exc:
            # Someone else writes this game now; nothing of this batch was written.
            log.warning("drain_lost_game", game_id=game_id, code=exc.code)
            report = DrainReport(game_id, "lease_lost")
        finally:
            if put_back is None:
                put_back = await self.store.release_lease(game_id, turn.lease)
        return replace(report, put_back=put_back)

    @staticmethod
    def _views(session: GameSession) -> dict[str, bytes]:
        return encode_views(
            session.codec, session.game_id, session.version, session.state, session.meta.seats
        )

    async def _apply_batch(self, game_id: str, turn: Turn) -> tuple[DrainReport, bool | None]:
        """The turn's report, and whether the game was put back when the commit released the
        lease (None when the lease is still held)."""
        session = await load_session(self.store, game_id, self.cache.take(game_id), turn.head)
        commands = turn.commands
        if not commands:
            self.cache.put(session)
            return DrainReport(game_id, "idle", version=session.version), None
        started = time.perf_counter()
        was_finished = session.finished
        plan = plan_batch(session, commands)
        # Projections ride in the same atomic step, unless the rules crashed half-way and
        # the session's state can no longer be trusted (then they are rebuilt below).
        project = bool(plan.events) and session.rules_supported and plan.state_trusted
        views = self._views(session) if project else {}
        batch = Batch(
            lease=turn.lease,
            expected_version=plan.expected_version,
            cursor=plan.cursor,
            head_hash=session.head_hash,
            events=plan.events,
            decided=plan.decided,
            finished=plan.finished,
            lease_ttl_ms=self.lease_ttl_ms,
            views=views,
        )
        # On failure the advanced session is dropped. The usual turn gives the lease back in
        # the same step; one whose rules crashed keeps it to rebuild the state and views.
        put_back: bool | None = None
        if plan.state_trusted:
            put_back = (await self.store.commit_and_release(game_id, batch)).put_back
        else:
            await self.store.commit(game_id, batch)
            session = await load_session(self.store, game_id)
            if plan.events and self.views is not None:
                await self.views.write(game_id, session.version, self._views(session))
        self.cache.put(session)
        if plan.finished and not was_finished and self.lobby is not None:
            await self.lobby.close(game_id, session.meta.game)
        if self.publisher is not None:
            await self.publisher.publish(game_id, session.version)
        log.info(
            "batch_applied",
            game_id=game_id,
            command_ids=[d.command_id for d in plan.decided],
            seats=[d.record.seat for d in plan.decided],
            outcomes=[d.record.code or d.record.status for d in plan.decided],
            first_version=plan.expected_version + 1 if plan.events else None,
            last_version=plan.version,
            finished=plan.finished,
            duration_ms=round((time.perf_counter() - started) * 1000, 3),
        )
        return DrainReport(game_id, "applied", len(plan.decided), plan.version), put_back
