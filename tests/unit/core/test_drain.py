"""A game's drain turn on the Redis adapter over fakeredis: batches, putting back, the lease,
cached sessions (a lease expiring mid-batch on the in-memory store, whose clock the test moves)."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from domain.bots import RandomBot
from domain.chance import Chance
from domain.engine import decide, fold
from service.adapters.store.redis_store import RedisEventStore
from service.core.pipeline.drain import Drainer, NextTake
from service.core.pipeline.session import SessionCache, load_session
from service.core.ports.records import NO_INBOX_ID, Batch, Head
from tests.fakes.memory_store import InMemoryEventStore
from tests.fakes.race import RaceGame
from tests.fakes.rounds import drain_one, take_lease
from tests.unit.core.helpers import SEED, queue, race_state, record_of, stored_race

pytestmark = pytest.mark.anyio

GAME_ID = "race1"


def drainer(store: RedisEventStore, batch_size: int = 64) -> Drainer:
    return Drainer(store, None, None, None, SessionCache(8), batch_size, 10_000)


async def ready_games(store: RedisEventStore) -> list[str]:
    """Every game in the ready set, taken out of it."""
    return await store.take_ready("runner", 100)


async def test_a_drain_applies_the_waiting_commands_and_leaves_the_game_out(
    store: RedisEventStore,
    race: RaceGame,
) -> None:
    await stored_race(store, GAME_ID)
    seat = race_state().turn
    await queue(store, GAME_ID, "c1", seat, {"type": "Move", "steps": 1})
    await queue(store, GAME_ID, "c2", 1 - seat, {"type": "Move", "steps": 2})

    await ready_games(store)  # the runner took the game
    report = await drain_one(drainer(store), GAME_ID)

    assert (report.status, report.commands, report.version, report.put_back) == (
        "applied",
        2,
        7,
        False,
    )
    assert await ready_games(store) == []
    head = await store.head(GAME_ID)
    assert head is not None and await store.inbox(GAME_ID, head.cursor, 10) == []


async def test_more_than_a_batch_puts_the_game_back_in_the_ready_set(
    store: RedisEventStore, race: RaceGame
) -> None:
    await stored_race(store, GAME_ID)
    for n in range(5):
        await queue(store, GAME_ID, f"c{n}", 0, {"type": "Move", "steps": 1})
    await ready_games(store)  # the runner took the game

    report = await drain_one(drainer(store, batch_size=2), GAME_ID)

    assert (report.commands, report.put_back) == (2, True)
    assert await ready_games(store) == [GAME_ID]
    head = await store.head(GAME_ID)
    assert head is not None
    assert len(await store.inbox(GAME_ID, head.cursor, 10)) == 3


async def test_a_drain_finds_the_game_busy_when_another_holds_the_lease(
    store: RedisEventStore,
    race: RaceGame,
) -> None:
    await stored_race(store, GAME_ID)
    await queue(store, GAME_ID, "c1", 0, {"type": "Move", "steps": 1})
    holder = await take_lease(store, GAME_ID, 10_000)
    assert holder is not None
    await ready_games(store)  # this runner took the game

    report = await drain_one(drainer(store), GAME_ID)
    skipped = await ready_games(store)
    put_back = await store.release_lease(GAME_ID, holder)  # the holder lets go

    assert report.status == "busy"
    assert skipped == []  # the skipping runner leaves the game to its holder...
    assert put_back and await ready_games(store) == [GAME_ID]  # ...who puts it back
    assert len(await store.inbox(GAME_ID, NO_INBOX_ID, 10)) == 1
    assert (await store.head(GAME_ID)).cursor == NO_INBOX_ID  # type: ignore[union-attr]


async def test_a_lease_expired_mid_batch_stops_the_job_without_writing(race: RaceGame) -> None:
    now = [1000.0]
    store = InMemoryEventStore(clock=lambda: now[0])
    await stored_race(store, GAME_ID)
    await queue(store, GAME_ID, "c1", race_state().turn, {"type": "Move", "steps": 1})
    commit = store.commit

    async def commit_after_a_stall(game_id: str, batch: Batch) -> Head:
        now[0] += 60  # the worker stalled past its lease, and another worker took the game
        assert await take_lease(store, game_id, 10_000) is not None
        return await commit(game_id, batch)

    store.commit = commit_after_a_stall  # type: ignore[method-assign]

    report = await drain_one(drainer(store), GAME_ID)

    assert report.status == "lease_lost"
    assert len(await store.read(GAME_ID)) == 5
    assert (await record_of(store, GAME_ID, "c1")).status == "queued"  # type: ignore[union-attr]


async def test_a_cached_session_folds_forward_what_another_worker_applied(
    store: RedisEventStore,
    race: RaceGame,
) -> None:
    await stored_race(store, GAME_ID)
    workers = [drainer(store), drainer(store)]
    bots = [RandomBot(1), RandomBot(2)]
    live, chance, sent = race_state(), Chance(SEED), 0
    while race.outcome(live) is None:
        seat = race.to_act(live)[0]
        command = bots[seat].choose(race, live, seat)
        assert command is not None
        await queue(store, GAME_ID, f"c{sent}", seat, msgspec.to_builtins(command))
        # Alternate workers: each one's cached session falls behind the other's writes.
        await drain_one(workers[sent % 2], GAME_ID)
        live = fold(race, decide(race, live, command, seat, chance), live)
        sent += 1

    records = [await record_of(store, GAME_ID, f"c{n}") for n in range(sent)]
    rebuilt = await load_session(store, GAME_ID)
    assert all(r is not None and r.status == "applied" for r in records)
    assert rebuilt.state == live and rebuilt.finished
    for worker in workers:
        cached = worker.cache.take(GAME_ID)
        assert cached is not None
        if cached.version == rebuilt.version:  # the worker that applied the last batch
            assert cached.state == live


async def test_a_round_that_finishes_a_game_does_not_wait_for_the_next_games(
    store: RedisEventStore,
    race: RaceGame,
) -> None:
    # Given a game whose waiting commands finish it (the lobby must hear of it at once)
    await stored_race(store, GAME_ID, target=5)
    seat = race_state(target=5).turn
    for n, mover in enumerate([seat, 1 - seat, seat]):
        await queue(store, GAME_ID, f"c{n}", mover, {"type": "Move", "steps": 3})
    await ready_games(store)
    # When its round is drained with a take that could wait a minute for the next games
    async with asyncio.timeout(5):
        drained = await drainer(store).drain_round([GAME_ID], NextTake("runner", 4, 60.0))
    # Then the round ends at once: finished, nothing taken, and no wait made
    assert drained.reports[0].status == "applied"
    head = await store.head(GAME_ID)
    assert head is not None and head.finished
    assert (drained.taken, drained.waited) == ([], False)


async def test_a_round_waits_for_the_next_game_with_its_commit(
    store: RedisEventStore, race: RaceGame
) -> None:
    # Given a drained game and another one that gets a command only while the round waits
    await stored_race(store, GAME_ID)
    await stored_race(store, "race2")
    await queue(store, GAME_ID, "c1", race_state().turn, {"type": "Move", "steps": 1})
    await ready_games(store)

    async def later_command() -> None:
        await asyncio.sleep(0.05)
        await queue(store, "race2", "c1", race_state().turn, {"type": "Move", "steps": 1})

    # When the round is drained with a take that waits
    async with asyncio.timeout(5):
        drained, _ = await asyncio.gather(
            drainer(store).drain_round([GAME_ID], NextTake("runner", 4, 60.0)), later_command()
        )
    # Then the round's game is applied and the next game comes back with it
    assert drained.reports[0].status == "applied"
    assert (drained.taken, drained.waited) == (["race2"], True)
