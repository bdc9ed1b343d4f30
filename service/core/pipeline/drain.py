"""A drain round: a runner opens a lease round on several ready games at once and decides them,
in two Redis round trips.

`open_round` takes each game's lease and reads its head, its waiting commands and whatever
events the worker's cached state lacks; each game's batch is then decided and projected;
`commit_round` appends every batch with its projections, gives each lease back (putting the
game back in the ready set if more waits) and notifies each game's listeners, one atomic step
per game. Round trips, not rules, were the cost of a game's round (docs/benchmarks.md): a round pays
two of them for all its games.

One batch per game per round: busy games do not starve quiet ones, and each batch re-reads
the inbox so it carries whatever piled up while the game waited its turn.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field

import structlog

from service.core.pipeline.apply import BatchPlan
from service.core.pipeline.careful import OneAtATime
from service.core.pipeline.round_plan import (
    DrainReport,
    Planned,
    drop_round_deadlines,
    plan_round,
    views_of,
)
from service.core.pipeline.session import GameSession, SessionCache, load_session
from service.core.ports.deadlines import Deadlines
from service.core.ports.event_store import (
    CommitFailed,
    DrainStore,
)
from service.core.ports.failures import store_errors
from service.core.ports.notifications import NotifyMarks
from service.core.ports.notifier import Publisher
from service.core.ports.records import (
    Committed,
    GameRound,
    RoundRequest,
)
from service.core.ports.seats import Lobby
from service.core.ports.views import Views

log = structlog.get_logger("skald.worker")


@dataclass(frozen=True)
class NextTake:
    """A runner's next take, sent with a round's commit: up to `count` games, waiting up to
    `wait_s` for one."""

    runner_job_id: str
    count: int
    wait_s: float


@dataclass
class Round:
    """What a drain round did, game by game, and the games it took for the next round."""

    reports: list[DrainReport]
    taken: list[str] = field(default_factory=list)
    waited: bool = False  # whether the take waited for games (else none may have been ready)


class Drainer:
    """Applies ready games' waiting commands, one batch per game per round."""

    def __init__(
        self,
        store: DrainStore,
        views: Views | None,
        lobby: Lobby | None,
        publisher: Publisher | None,
        cache: SessionCache,
        batch_size: int,
        lease_ttl_ms: int,
        deadlines: Deadlines | None = None,
        on_finished: Callable[[str], Awaitable[object]] | None = None,
        marks: NotifyMarks | None = None,
        game_over: Callable[[str], Awaitable[None]] | None = None,
    ) -> None:
        self.deadlines = deadlines
        # Told of each game a batch ended, finished or cancelled (its players' index of games
        # not over); a failure is logged: the index drops such a game when it is next full.
        self.game_over = game_over  # where new turn deadlines are indexed
        self.on_finished = on_finished  # told of each game a batch finished (its ratings)
        self.marks = marks  # where committed games wait for the notification projector
        # On one Redis each commit marks its game itself, in its script: no call per round.
        self.marked_by_commits = marks is not None and store.marks_in_commit(marks.key)
        self.store = store
        self.views = views
        self.lobby = lobby
        self.publisher = publisher  # only for views rebuilt after the rules failed mid-batch
        self.cache = cache
        self.batch_size = batch_size
        self.lease_ttl_ms = lease_ttl_ms
        self.careful = OneAtATime(
            store, lobby, publisher, cache, lease_ttl_ms, deadlines, self._tell_over
        )

    async def drain_round(self, game_ids: list[str], then_take: NextTake | None = None) -> Round:
        """Apply up to one batch of each game's waiting commands; a report per game, in order.

        A game another runner holds is skipped ("busy"): its holder puts it back in the ready
        set when it lets go, if commands still wait. With `then_take`, the round's commit also
        takes (waiting if need be) the runner's next games, in the same round trip.
        """
        cached = {game_id: self.cache.take(game_id) for game_id in game_ids}
        requests = [RoundRequest(game_id, _known_version(cached[game_id])) for game_id in game_ids]
        rounds = await self.store.open_round(requests, self.lease_ttl_ms, self.batch_size)
        # Leases this round holds until each game's part of it is over: whatever happens to the
        # round, they are given back before it ends, never left to expire.
        held = {
            g: game_round.lease
            for g, game_round in zip(game_ids, rounds, strict=True)
            if game_round is not None
        }
        try:
            return await self._round(game_ids, cached, rounds, held, then_take)
        finally:
            for game_id, lease in held.items():
                await self._let_go(game_id, lease)

    async def _round(
        self,
        game_ids: list[str],
        cached: dict[str, GameSession | None],
        rounds: list[GameRound | None],
        held: dict[str, int],
        then_take: NextTake | None,
    ) -> Round:
        reports: dict[str, DrainReport] = {}
        planned: dict[str, Planned] = {}
        careful: dict[str, GameRound] = {}  # games to go through one command at a time
        for game_id, game_round in zip(game_ids, rounds, strict=True):
            session = cached[game_id]
            if game_round is None:
                if session is not None:
                    self.cache.put(session)
                reports[game_id] = DrainReport(game_id, "busy")
                continue
            try:
                # Its deadlines are indexed below with the round's, in one call.
                entry = await plan_round(
                    self.store, self.lease_ttl_ms, game_id, session, game_round, None, None
                )
            except Exception:
                log.exception("drain_plan_failed", game_id=game_id)
                careful[game_id] = game_round
                continue
            if entry.plan.events and not entry.plan.state_trusted:
                # The rules failed after earlier commands of the batch moved the state: those
                # go again one at a time, each checked and projected before it is committed.
                careful[game_id] = game_round
                continue
            planned[game_id] = entry
        batches = [(game_id, entry.batch) for game_id, entry in planned.items()]
        if self.deadlines is not None:  # before the commit: never lost
            await self.deadlines.add_many(
                [(game_id, entry.plan.deadlines) for game_id, entry in planned.items()]
            )
        committed: list[tuple[str, BatchPlan]] = []  # whose ended deadlines are dropped
        taken: list[str] = []
        waited = False
        sent = time.perf_counter()
        if then_take is None:
            outcomes = await self.store.commit_round(batches)
        else:
            # The outcomes come back once the take returns: a round with work to do after its
            # commit takes only the games ready now, and the runner waits afterwards.
            waited = not careful and not any(entry.follow_up for entry in planned.values())
            outcomes, taken = await self.store.commit_round_then_take(
                batches,
                then_take.runner_job_id,
                then_take.count,
                then_take.wait_s if waited else 0.0,
            )
        for (game_id, entry), outcome in zip(planned.items(), outcomes, strict=True):
            if isinstance(outcome, CommitFailed):
                log.error("drain_commit_failed", game_id=game_id, reason=outcome.message)
                careful[game_id] = entry.game_round
                continue
            if isinstance(outcome, Committed):
                held.pop(game_id, None)  # the commit gave the lease back
            try:
                reports[game_id] = await self._finish(game_id, entry, outcome, sent, committed)
            except store_errors():
                raise
            except Exception:  # after its commit: the game's round is over all the same
                log.exception("drain_finish_failed", game_id=game_id)
                reports[game_id] = DrainReport(game_id, "applied", len(entry.plan.decided))
            held.pop(game_id, None)
        await drop_round_deadlines(self.deadlines, committed)
        for game_id, game_round in careful.items():
            try:
                reports[game_id] = await self.careful.run(game_id, game_round)
            except store_errors():
                raise
            except Exception:  # its lease is given back below, with the round's
                log.exception("drain_careful_failed", game_id=game_id)
                reports[game_id] = DrainReport(game_id, "lease_lost")
                continue
            held.pop(game_id, None)
        await self._mark_for_notifying(reports.values())
        return Round([reports[game_id] for game_id in game_ids], taken, waited)

    async def _mark_for_notifying(self, reports: Iterable[DrainReport]) -> None:
        """Mark the games this round moved for the notification projector: one command for
        the whole round, after its commits (a mark lost to a crash here is made up for by the
        sweeper, which marks any game whose notified version lags its head). Not when the
        commits marked them already."""
        if self.marks is None or self.marked_by_commits:
            return
        moved = [report.game_id for report in reports if report.status == "applied"]
        try:
            await self.marks.mark(moved)
        except store_errors() as exc:
            log.warning("notify_mark_failed", games=len(moved), error=repr(exc))

    async def _let_go(self, game_id: str, lease: int) -> None:
        """Give back the lease of a game whose part the round did not finish (it failed)."""
        self.cache.take(game_id)  # its session may be half-way through the failed round
        try:
            await self.store.release_lease(game_id, lease)
        except Exception:  # Redis is gone too: the lease expires on its own
            log.exception("drain_release_failed", game_id=game_id)

    async def _finish(
        self,
        game_id: str,
        entry: Planned,
        outcome: Committed | Exception,
        sent: float,
        committed: list[tuple[str, BatchPlan]],
    ) -> DrainReport:
        """Keep the advanced session if the batch was committed (noting it in `committed`,
        whose ended deadlines the round drops); report the game's round."""
        plan, session = entry.plan, entry.session
        if not isinstance(outcome, Committed):
            # Someone else writes this game now; nothing of this batch was written and the
            # advanced session is dropped. The lease is ours no more, or will expire.
            log.warning("drain_lost_game", game_id=game_id, code=getattr(outcome, "code", ""))
            await self.store.release_lease(game_id, entry.batch.lease)
            return DrainReport(game_id, "lease_lost")
        if not plan.decided:
            self.cache.put(session)
            return DrainReport(game_id, "idle", version=session.version, put_back=outcome.put_back)
        if plan.state_trusted:
            self.cache.put(session)
        else:
            await self._rebuild_views(game_id)
        committed.append((game_id, plan))
        if plan.finished and not entry.was_finished and self.lobby is not None:
            await self.lobby.close(game_id, session.meta.game)
        if plan.finished and not entry.was_finished:
            await self._tell_over(game_id)
            await self._tell_finished(game_id)
        log.info(
            "batch_applied",
            game_id=game_id,
            command_ids=[d.command_id for d in plan.decided],
            seats=[d.record.seat for d in plan.decided],
            outcomes=[d.record.code or d.record.status for d in plan.decided],
            first_version=plan.expected_version + 1 if plan.events else None,
            last_version=plan.version,
            finished=plan.finished,
            # From opening the game to sending its commit (whose reply may wait for the
            # runner's next games).
            duration_ms=round((sent - entry.started) * 1000, 3),
        )
        return DrainReport(
            game_id, "applied", len(plan.decided), plan.version, put_back=outcome.put_back
        )

    async def _tell_over(self, game_id: str) -> None:
        if self.game_over is None:
            return
        try:
            await self.game_over(game_id)
        except Exception:
            log.exception("drain_game_over_failed", game_id=game_id)

    async def _tell_finished(self, game_id: str) -> None:
        """Tell `on_finished` of a game the batch finished; a failure is only logged (the
        sweeper's catch-up logs the game's result later)."""
        if self.on_finished is None:
            return
        try:
            await self.on_finished(game_id)
        except Exception:
            log.exception("drain_on_finished_failed", game_id=game_id)

    async def _rebuild_views(self, game_id: str) -> None:
        """Refold a game whose rules failed mid-batch and store its views (unless a later
        batch stored newer ones meanwhile), then tell its listeners."""
        session = await load_session(self.store, game_id)
        if session.rules_supported and self.views is not None:
            await self.views.write(game_id, session.version, views_of(session))
        self.cache.put(session)
        if self.publisher is not None:
            await self.publisher.publish(game_id, session.version)


def _known_version(cached: GameSession | None) -> int:
    """What a round request says the worker has: its cached version, or 0 for nothing."""
    return 0 if cached is None else cached.version
