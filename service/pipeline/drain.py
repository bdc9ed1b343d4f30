"""A drain round: a runner's turn at several ready games at once, in two Redis round trips.

`open_turns` takes each game's lease and reads its head, its waiting commands and whatever
events the worker's cached state lacks; each game's batch is then decided and projected;
`commit_turns` appends every batch with its projections, gives each lease back (putting the
game back in the ready set if more waits) and notifies each game's listeners, one atomic step
per game. Round trips, not rules, were the cost of a turn (docs/benchmarks.md): a round pays
two of them for all its games.

One batch per game per round: busy games do not starve quiet ones, and each batch re-reads
the inbox so it carries whatever piled up while the game waited its turn.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

import structlog

from service.notify import Publisher
from service.pipeline.apply import BatchPlan, plan_batch
from service.pipeline.codec import codec_for
from service.pipeline.session import GameSession, SessionCache, load_session
from service.projections import encode_views
from service.store.protocol import EventStore
from service.store.records import Batch, Committed, Turn, TurnRequest
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


@dataclass
class _Planned:
    """One opened game of a round, decided and ready to commit."""

    session: GameSession
    plan: BatchPlan
    batch: Batch
    was_finished: bool
    started: float

    @property
    def follow_up(self) -> bool:
        """Whether work follows the commit that should not wait for the runner's next games:
        views to rebuild (the rules failed mid-batch), a finished game to take off the lobby."""
        plan = self.plan
        finishing = plan.finished and not self.was_finished
        return bool(plan.decided) and (not plan.state_trusted or finishing)


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
        self.publisher = publisher  # only for views rebuilt after the rules failed mid-batch
        self.cache = cache
        self.batch_size = batch_size
        self.lease_ttl_ms = lease_ttl_ms

    async def drain(self, game_id: str) -> DrainReport:
        """Apply up to one batch of one game's waiting commands (a round of one game)."""
        [report] = (await self.drain_round([game_id])).reports
        return report

    async def drain_round(self, game_ids: list[str], then_take: NextTake | None = None) -> Round:
        """Apply up to one batch of each game's waiting commands; a report per game, in order.

        A game another runner holds is skipped ("busy"): its holder puts it back in the ready
        set when it lets go, if commands still wait. With `then_take`, the round's commit also
        takes (waiting if need be) the runner's next games, in the same round trip.
        """
        cached = {game_id: self.cache.take(game_id) for game_id in game_ids}
        requests = [TurnRequest(game_id, _known_version(cached[game_id])) for game_id in game_ids]
        turns = await self.store.open_turns(requests, self.lease_ttl_ms, self.batch_size)
        reports: dict[str, DrainReport] = {}
        planned: dict[str, _Planned] = {}
        for game_id, turn in zip(game_ids, turns, strict=True):
            session = cached[game_id]
            if turn is None:
                if session is not None:
                    self.cache.put(session)
                reports[game_id] = DrainReport(game_id, "busy")
                continue
            planned[game_id] = await self._plan(game_id, session, turn)
        batches = [(game_id, entry.batch) for game_id, entry in planned.items()]
        taken: list[str] = []
        waited = False
        sent = time.perf_counter()
        if then_take is None:
            outcomes = await self.store.commit_turns(batches)
        else:
            # The outcomes come back once the take returns: a round with work to do after its
            # commit takes only the games ready now, and the runner waits afterwards.
            waited = not any(entry.follow_up for entry in planned.values())
            outcomes, taken = await self.store.commit_turns_then_take(
                batches,
                then_take.runner_job_id,
                then_take.count,
                then_take.wait_s if waited else 0.0,
            )
        for (game_id, entry), outcome in zip(planned.items(), outcomes, strict=True):
            reports[game_id] = await self._finish(game_id, entry, outcome, sent)
        return Round([reports[game_id] for game_id in game_ids], taken, waited)

    async def _plan(self, game_id: str, cached: GameSession | None, turn: Turn) -> _Planned:
        """Bring the game's session to the turn's head, decide its commands, project them."""
        session = _session_at_turn(game_id, cached, turn)
        if session is None:  # the cache is ahead of the store (a restored Redis): read afresh
            session = await load_session(self.store, game_id, head=turn.head)
        was_finished = session.finished
        plan = plan_batch(session, turn.commands)
        # Projections ride in the same atomic step, unless the rules crashed half-way and
        # the session's state can no longer be trusted (then they are rebuilt afterwards).
        project = bool(plan.events) and session.rules_supported and plan.state_trusted
        views = _views(session) if project else {}
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
        return _Planned(session, plan, batch, was_finished, time.perf_counter())

    async def _finish(
        self, game_id: str, entry: _Planned, outcome: Committed | Exception, sent: float
    ) -> DrainReport:
        """Keep the advanced session if the batch was committed; report the game's turn."""
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
        if plan.finished and not entry.was_finished and self.lobby is not None:
            await self.lobby.close(game_id, session.meta.game)
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

    async def _rebuild_views(self, game_id: str) -> None:
        """Refold a game whose rules failed mid-batch and store its views (unless a later
        batch stored newer ones meanwhile), then tell its listeners."""
        session = await load_session(self.store, game_id)
        if session.rules_supported and self.views is not None:
            await self.views.write(game_id, session.version, _views(session))
        self.cache.put(session)
        if self.publisher is not None:
            await self.publisher.publish(game_id, session.version)


def _views(session: GameSession) -> dict[str, bytes]:
    """Every viewer's pre-encoded view of the session's state."""
    return encode_views(
        session.codec, session.game_id, session.version, session.state, session.meta.seats
    )


def _known_version(cached: GameSession | None) -> int:
    """What a turn request says the worker has: its cached version, or 0 for nothing."""
    return 0 if cached is None else cached.version


def _session_at_turn(game_id: str, cached: GameSession | None, turn: Turn) -> GameSession | None:
    """The session at the turn's head: the cached one folded forward by the events the turn
    brought, or a new one from a cold start's facts; None when neither can be had."""
    head = turn.head
    if cached is not None:
        if cached.version > head.version:
            return None
        session = cached  # its meta never changes
    elif turn.meta is not None and turn.seed is not None:
        codec = codec_for(turn.meta.game)
        session = GameSession.start(game_id, turn.meta, codec, turn.seed, head)
    else:
        return None
    if session.behind(head):
        session.fold(turn.events)
        if session.version != head.version:
            return None  # events missing from the store's reply: never guess a state
    session.move_to(head)
    return session
