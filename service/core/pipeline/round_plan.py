"""A game's part of a drain round planned: its session brought to the head its lease round
opened at, its commands decided and projected into the batch to commit, and what the round
came to for the game (`DrainReport`). Shared by a drain round's batches (drain.py) and the
one-command-at-a-time path (careful.py)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

from service.core.codec import codec_for
from service.core.pipeline.apply import BatchPlan, plan_batch
from service.core.pipeline.session import GameSession, load_session
from service.core.ports.deadlines import Deadlines
from service.core.ports.event_store import EventLog
from service.core.ports.records import Batch, GameRound, ReceivedCommand, StoredEvent
from service.core.projections import encode_live_events, table_views

# "resting": not even a refusal could be written for the game; it keeps its lease until the
# lease expires (then the sweeper wakes it) rather than spin from runner to runner.
DrainStatus = Literal["applied", "idle", "busy", "lease_lost", "resting"]


@dataclass(frozen=True)
class DrainReport:
    """What one game's lease round did; `put_back` when the game went back to the ready set."""

    game_id: str
    status: DrainStatus
    commands: int = 0
    version: int = 0
    put_back: bool = False


@dataclass
class Planned:
    """One opened game of a round, decided and ready to commit."""

    session: GameSession
    plan: BatchPlan
    batch: Batch
    was_finished: bool
    started: float
    game_round: GameRound

    @property
    def follow_up(self) -> bool:
        """Whether work follows the commit that should not wait for the runner's next games:
        views to rebuild (the rules failed mid-batch), a finished game to take off the lobby."""
        plan = self.plan
        finishing = plan.finished and not self.was_finished
        return bool(plan.decided) and (not plan.state_trusted or finishing)


async def plan_round(
    store: EventLog,
    lease_ttl_ms: int,
    game_id: str,
    cached: GameSession | None,
    game_round: GameRound,
    commands: list[ReceivedCommand] | None = None,
    deadlines: Deadlines | None = None,
) -> Planned:
    """Bring the game's session to the round's head, decide its commands (or `commands`
    alone, from a session already at the stored head), project them."""
    session = cached if commands is not None else None
    if session is None:
        session = session_at_round(game_id, cached, game_round)
    if session is None:  # the cache is ahead of the store (a restored Redis): reread
        session = await load_session(store, game_id, head=game_round.head)
    was_finished = session.finished
    plan = plan_batch(session, game_round.commands if commands is None else commands)
    if plan.deadlines and deadlines is not None:
        await deadlines.add(game_id, plan.deadlines)  # before the commit: never lost
    # Projections ride in the same atomic step, unless the rules crashed half-way and
    # the session's state can no longer be trusted (then they are rebuilt afterwards).
    project = bool(plan.events) and session.rules_supported and plan.state_trusted
    views = views_of(session, live=True) if project else {}
    if project:
        views |= live_events_of(session, plan)
    batch = Batch(
        lease=game_round.lease,
        expected_version=plan.expected_version,
        cursor=plan.cursor,
        head_hash=session.head_hash,
        events=plan.events,
        decided=plan.decided,
        finished=plan.finished,
        lease_ttl_ms=lease_ttl_ms,
        views=views,
    )
    return Planned(session, plan, batch, was_finished, time.perf_counter(), game_round)


def views_of(session: GameSession, live: bool = False) -> dict[str, bytes]:
    """Every viewer's pre-encoded view of the session's state (with `live`, and each one's
    turn for the commit's notification)."""
    return table_views(session.codec, session.game_id, session.table, live=live)


async def drop_round_deadlines(
    deadlines: Deadlines | None, committed: list[tuple[str, BatchPlan]]
) -> None:
    """`drop_deadlines` for the committed batches of a drain round: the ended deadlines of
    every game still going on in one call, the games that ended one by one."""
    if deadlines is None:
        return
    for game_id, plan in committed:
        if plan.finished:
            await deadlines.drop_game(game_id)
    going_on = [(game_id, plan.dropped) for game_id, plan in committed if not plan.finished]
    await deadlines.drop_many(going_on)


def live_events_of(session: GameSession, plan: BatchPlan) -> dict[str, bytes]:
    """The batch's events as each viewer may see them, for the commit's notification."""
    stored = [
        StoredEvent(plan.expected_version + n, event.data, event.hash, event.command_id)
        for n, event in enumerate(plan.events, start=1)
    ]
    return encode_live_events(
        session.codec, plan.expected_version, stored, session.meta.seats, plan.finished
    )


async def drop_deadlines(deadlines: Deadlines | None, game_id: str, plan: BatchPlan) -> None:
    """Unindex the deadlines a committed batch ended: spare them a stale timeout. A batch
    that ended the game unindexes every deadline of the game, including any a batch indexed
    before a commit that never happened (its versions are not the stream's)."""
    if deadlines is None:
        return
    if plan.finished:
        await deadlines.drop_game(game_id)
    elif plan.dropped:
        await deadlines.drop(game_id, plan.dropped)


def session_at_round(
    game_id: str, cached: GameSession | None, game_round: GameRound
) -> GameSession | None:
    """The session at the round's head: the cached one folded forward by the events the round
    brought, or a new one from a cold start's facts; None when neither can be had."""
    head = game_round.head
    if cached is not None:
        if cached.version > head.version:
            return None
        session = cached  # its meta never changes
    elif game_round.meta is not None and game_round.seed is not None:
        codec = codec_for(game_round.meta.game)
        session = GameSession.start(game_id, game_round.meta, codec, game_round.seed, head)
    else:
        return None
    if session.behind(head):
        session.fold(game_round.events)
        if session.version != head.version:
            return None  # events missing from the store's reply: never guess a state
    session.move_to(head)
    return session
