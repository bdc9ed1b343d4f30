"""The careful path of a drain round: a game whose batch failed as a whole (its rules
crashed mid-batch, its plan or its commit failed) is decided again one command at a time,
each command committed alone (`commit`) under the round's lease, so one poison command is
refused with `command.internal_error` and the game goes on."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import structlog

from service.core.pipeline.round_plan import DrainReport, drop_deadlines, plan_round
from service.core.pipeline.session import GameSession, SessionCache, load_session
from service.core.ports.deadlines import Deadlines
from service.core.ports.event_store import (
    AlreadyDecided,
    DrainStore,
    GameMissing,
    LeaseLost,
    VersionConflict,
)
from service.core.ports.failures import store_errors
from service.core.ports.notifier import Publisher
from service.core.ports.records import Batch, CommandRecord, Decided, GameRound, ReceivedCommand
from service.core.ports.seats import Lobby

log = structlog.get_logger("skald.worker")


class OneAtATime:
    """Decides a game's round of commands one by one after its batch failed as a whole."""

    def __init__(
        self,
        store: DrainStore,
        lobby: Lobby | None,
        publisher: Publisher | None,
        cache: SessionCache,
        lease_ttl_ms: int,
        deadlines: Deadlines | None = None,
        game_over: Callable[[str], Awaitable[None]] | None = None,
    ) -> None:
        self.deadlines = deadlines
        self.game_over = game_over  # told of each game a commit ended (its players' index)
        self.store = store
        self.lobby = lobby
        self.publisher = publisher
        self.cache = cache
        self.lease_ttl_ms = lease_ttl_ms

    async def run(self, game_id: str, game_round: GameRound) -> DrainReport:
        """Decide and commit the round's commands one by one after its batch failed as a whole;
        a command whose own step fails (rules, projection, store) is refused with
        `command.internal_error`, and the game goes on to the next."""
        lease, decided = game_round.lease, 0
        session = await self._fresh_session(game_id)
        resting = False
        try:
            for received in game_round.commands:
                if session is not None:
                    try:
                        entry = await plan_round(
                            self.store,
                            self.lease_ttl_ms,
                            game_id,
                            session,
                            game_round,
                            [received],
                            self.deadlines,
                        )
                        await self.store.commit(game_id, entry.batch)
                    except (LeaseLost, VersionConflict, AlreadyDecided, GameMissing):
                        return DrainReport(game_id, "lease_lost", decided)
                    except Exception:
                        log.exception("drain_command_failed", game_id=game_id)
                    else:
                        decided += 1
                        await drop_deadlines(self.deadlines, game_id, entry.plan)
                        if entry.plan.finished and not entry.was_finished and self.lobby:
                            await self.lobby.close(game_id, session.meta.game)
                        if entry.plan.finished and not entry.was_finished and self.game_over:
                            await self.game_over(game_id)
                        if not entry.plan.state_trusted:
                            session = await self._fresh_session(game_id)
                        continue
                try:
                    refused = await self._refuse(game_id, lease, received)
                except store_errors():
                    raise
                except Exception:
                    log.exception("drain_game_resting", game_id=game_id, lease_ms=self.lease_ttl_ms)
                    resting = True
                    return DrainReport(game_id, "resting", decided)
                if not refused:
                    return DrainReport(game_id, "lease_lost", decided)
                decided += 1
                session = await self._fresh_session(game_id)
        finally:
            if not resting:
                put_back = await self.store.release_lease(game_id, lease)
        head = await self.store.head(game_id)
        version = head.version if head is not None else 0
        if session is not None and session.version == version:
            self.cache.put(session)
        if self.publisher is not None:
            await self.publisher.publish(game_id, version)
        return DrainReport(game_id, "applied", decided, version, put_back=put_back)

    async def _fresh_session(self, game_id: str) -> GameSession | None:
        """The game as stored, or None when it cannot be loaded (its rules fail on its own
        events, or its game is not installed here)."""
        try:
            return await load_session(self.store, game_id)
        except store_errors():
            raise
        except Exception:
            log.exception("drain_load_failed", game_id=game_id)
            return None

    async def _refuse(self, game_id: str, lease: int, received: ReceivedCommand) -> bool:
        """Record `received` as refused with nothing applied; False when the lease is lost."""
        head = await self.store.head(game_id)
        if head is None:
            return False
        record = CommandRecord(
            "refused",
            received.seat,
            received.inbox_id,
            code="command.internal_error",
            message="the service failed on this command; nothing of it was applied",
        )
        batch = Batch(
            lease=lease,
            expected_version=head.version,
            cursor=received.inbox_id,
            head_hash=head.hash,
            events=[],
            decided=[Decided(received.command_id, record)],
            finished=head.finished,
            lease_ttl_ms=self.lease_ttl_ms,
        )
        try:
            await self.store.commit(game_id, batch)
        except (LeaseLost, VersionConflict, AlreadyDecided, GameMissing):
            return False
        return True
