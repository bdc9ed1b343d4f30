"""Drain jobs on the in-memory store: batches, hand-over, the lease, cached sessions."""

from __future__ import annotations

import msgspec
import pytest

from domain.bots import RandomBot
from domain.chance import Chance
from domain.engine import fold
from service.pipeline.drain import Drainer
from service.pipeline.session import SessionCache, load_session
from service.store.memory import InMemoryEventStore
from service.store.records import NO_INBOX_ID, Batch, Head
from tests.fakes.race import RaceGame
from tests.fakes.scheduler import RecordingScheduler
from tests.unit.service.helpers import SEED, queue, race_state, stored_race

pytestmark = pytest.mark.anyio

GAME_ID = "race1"


def drainer(
    store: InMemoryEventStore, scheduler: RecordingScheduler, batch_size: int = 64
) -> Drainer:
    return Drainer(store, None, None, None, scheduler, SessionCache(8), batch_size, 10_000)


async def test_a_drain_applies_the_waiting_commands_and_lowers_the_flag(race: RaceGame) -> None:
    store, scheduler = InMemoryEventStore(), RecordingScheduler()
    await stored_race(store, GAME_ID)
    seat = race_state().turn
    await queue(store, GAME_ID, "c1", seat, {"type": "Move", "steps": 1})
    await queue(store, GAME_ID, "c2", 1 - seat, {"type": "Move", "steps": 2})

    report = await drainer(store, scheduler).drain(GAME_ID)

    assert (report.status, report.commands, report.version, report.rescheduled) == (
        "applied",
        2,
        7,
        False,
    )
    assert await store.drain_flag(GAME_ID) is None
    assert scheduler.scheduled == []
    head = await store.head(GAME_ID)
    assert head is not None and await store.inbox(GAME_ID, head.cursor, 10) == []


async def test_more_than_a_batch_hands_over_to_a_new_job(race: RaceGame) -> None:
    store, scheduler = InMemoryEventStore(), RecordingScheduler()
    await stored_race(store, GAME_ID)
    for n in range(5):
        await queue(store, GAME_ID, f"c{n}", 0, {"type": "Move", "steps": 1})

    report = await drainer(store, scheduler, batch_size=2).drain(GAME_ID)

    assert (report.commands, report.rescheduled) == (2, True)
    assert [game for game, _ in scheduler.scheduled] == [GAME_ID]
    assert await store.drain_flag(GAME_ID) == scheduler.scheduled[0][1]
    head = await store.head(GAME_ID)
    assert head is not None
    assert len(await store.inbox(GAME_ID, head.cursor, 10)) == 3


async def test_a_drain_finds_the_game_busy_when_another_holds_the_lease(
    race: RaceGame,
) -> None:
    store, scheduler = InMemoryEventStore(), RecordingScheduler()
    await stored_race(store, GAME_ID)
    await queue(store, GAME_ID, "c1", 0, {"type": "Move", "steps": 1})
    assert await store.acquire_lease(GAME_ID, 10_000) is not None

    report = await drainer(store, scheduler).drain(GAME_ID)

    assert report.status == "busy"
    assert await store.drain_flag(GAME_ID) == "job-c1"  # still the holder's to lower
    assert len(await store.inbox(GAME_ID, NO_INBOX_ID, 10)) == 1
    assert (await store.head(GAME_ID)).cursor == NO_INBOX_ID  # type: ignore[union-attr]


async def test_a_lease_expired_mid_batch_stops_the_job_without_writing(race: RaceGame) -> None:
    now = [1000.0]
    store, scheduler = InMemoryEventStore(clock=lambda: now[0]), RecordingScheduler()
    await stored_race(store, GAME_ID)
    await queue(store, GAME_ID, "c1", race_state().turn, {"type": "Move", "steps": 1})
    commit = store.commit

    async def commit_after_a_stall(game_id: str, batch: Batch) -> Head:
        now[0] += 60  # the worker stalled past its lease, and another worker took the game
        assert await store.acquire_lease(game_id, 10_000) is not None
        return await commit(game_id, batch)

    store.commit = commit_after_a_stall  # type: ignore[method-assign]

    report = await drainer(store, scheduler).drain(GAME_ID)

    assert report.status == "lease_lost"
    assert len(await store.read(GAME_ID)) == 5
    assert (await store.command(GAME_ID, "c1")).status == "queued"  # type: ignore[union-attr]


async def test_a_cached_session_folds_forward_what_another_worker_applied(
    race: RaceGame,
) -> None:
    store, scheduler = InMemoryEventStore(), RecordingScheduler()
    await stored_race(store, GAME_ID)
    workers = [drainer(store, scheduler), drainer(store, scheduler)]
    bots = [RandomBot(1), RandomBot(2)]
    live, chance, sent = race_state(), Chance(SEED), 0
    while race.outcome(live) is None:
        seat = race.to_act(live)[0]
        command = bots[seat].choose(race, live, seat)
        assert command is not None
        await queue(store, GAME_ID, f"c{sent}", seat, msgspec.to_builtins(command))
        # Alternate workers: each one's cached session falls behind the other's writes.
        await workers[sent % 2].drain(GAME_ID)
        live = fold(race, race.decide(live, command, seat, chance), live)
        sent += 1

    records = [await store.command(GAME_ID, f"c{n}") for n in range(sent)]
    rebuilt = await load_session(store, GAME_ID)
    assert all(r is not None and r.status == "applied" for r in records)
    assert rebuilt.state == live and rebuilt.finished
    for worker in workers:
        cached = worker.cache.take(GAME_ID)
        assert cached is not None
        if cached.version == rebuilt.version:  # the worker that applied the last batch
            assert cached.state == live
