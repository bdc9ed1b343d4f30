"""Drain runners on the in-memory store: many games per job, the budget, slots, hand-over."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from service.core.pipeline.drain import Drainer
from service.core.pipeline.runner import DrainRunner
from service.core.pipeline.session import SessionCache
from service.core.ports.records import ReceivedCommand, RunnerLimits
from tests.fakes.memory_store import InMemoryEventStore
from tests.fakes.race import RaceGame
from tests.fakes.scheduler import RecordingScheduler
from tests.unit.core.helpers import body, race_state, record_of, stored_race

pytestmark = pytest.mark.anyio

GAMES = ["g1", "g2", "g3"]
SLOT_TTL_MS = 5_000


class Clock:
    """Seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def setup(
    clock: Clock,
    max_runners: int = 1,
    budget_s: float = 60.0,
    max_rounds: int = 0,
    round_size: int = 1,
) -> tuple[InMemoryEventStore, RecordingScheduler, DrainRunner]:
    store = InMemoryEventStore(clock, RunnerLimits(max_runners, SLOT_TTL_MS))
    scheduler = RecordingScheduler()
    drainer = Drainer(store, None, None, None, SessionCache(8), 64, 10_000)
    runner = DrainRunner(store, drainer, scheduler, budget_s, max_rounds, clock, round_size)
    return store, scheduler, runner


async def submit(
    store: InMemoryEventStore, scheduler: RecordingScheduler, game_id: str, command_id: str
) -> None:
    """Submit one legal move as the facade does: enqueue the runner when a slot was claimed."""
    received = ReceivedCommand(
        race_state().turn, command_id, "req", body({"type": "Move", "steps": 1})
    )
    job_id = scheduler.new_job_id()
    result = await store.submit(game_id, received, job_id, 0, 1000)
    if getattr(result, "start_runner", False):
        await scheduler.schedule(job_id)


async def statuses(store: InMemoryEventStore, command_id: str) -> list[str]:
    records = [await record_of(store, game_id, command_id) for game_id in GAMES]
    return [record.status if record is not None else "missing" for record in records]


async def start_every_game(store: InMemoryEventStore, scheduler: RecordingScheduler) -> None:
    """Store each game of GAMES and submit its first command, c1."""
    for game_id in GAMES:
        await stored_race(store, game_id)
        await submit(store, scheduler, game_id, "c1")


async def test_one_runner_job_drains_every_ready_game(race: RaceGame) -> None:
    clock = Clock()
    store, scheduler, runner = setup(clock)
    await start_every_game(store, scheduler)

    ran = await scheduler.run_all(runner)

    assert ran == 1  # the first submit took the only slot; the others found a runner coming
    assert await statuses(store, "c1") == ["applied"] * 3


async def test_a_spent_budget_hands_the_slot_to_a_successor_job(race: RaceGame) -> None:
    clock = Clock()
    store, scheduler, runner = setup(clock, budget_s=0.0)
    await start_every_game(store, scheduler)

    first = await runner.run(scheduler.scheduled.pop(0))
    rest = await scheduler.run_all(runner)

    assert first.games == 1
    assert first.successor is not None  # stopped on its budget: it handed over
    assert rest == 3  # a job per game, and one more that found none and ended...
    assert await statuses(store, "c1") == ["applied"] * 3
    await submit(store, scheduler, "g1", "c2")
    assert len(scheduler.scheduled) == 1  # ...giving its slot up: a new submission claims it


async def test_a_round_drains_several_games_at_once(race: RaceGame) -> None:
    clock = Clock()
    store, scheduler, runner = setup(clock, round_size=2)
    await start_every_game(store, scheduler)

    report = await runner.run(scheduler.scheduled.pop(0))

    assert (report.rounds, report.games, report.commands) == (2, 3, 3)
    assert await statuses(store, "c1") == ["applied"] * 3


async def test_one_round_of_one_game_per_job_makes_one_job_per_command(race: RaceGame) -> None:
    clock = Clock()
    store, scheduler, runner = setup(clock, max_rounds=1)
    await start_every_game(store, scheduler)

    ran = await scheduler.run_all(runner)

    assert ran == 3
    assert await statuses(store, "c1") == ["applied"] * 3


async def test_a_runner_that_ran_out_of_games_frees_its_slot(race: RaceGame) -> None:
    clock = Clock()
    store, scheduler, runner = setup(clock)
    await stored_race(store, "g1")
    await submit(store, scheduler, "g1", "c1")
    await scheduler.run_all(runner)

    await submit(store, scheduler, "g1", "c2")

    assert len(scheduler.scheduled) == 1  # the slot was free again: a new runner comes


async def test_a_dead_runners_slot_expires_and_a_new_runner_is_started(race: RaceGame) -> None:
    clock = Clock()
    store, scheduler, runner = setup(clock)
    await stored_race(store, "g1")
    await submit(store, scheduler, "g1", "c1")
    scheduler.scheduled.clear()  # the runner's worker died before it ran
    await submit(store, scheduler, "g1", "c2")
    before_expiry = len(scheduler.scheduled)

    clock.now += SLOT_TTL_MS / 1000
    woken = await store.wake("g1", "job-swept")

    assert before_expiry == 0  # the dead runner still held the only slot
    assert woken
    await runner.run("job-swept")
    records = [await record_of(store, "g1", command_id) for command_id in ("c1", "c2")]
    assert all(record is not None and record.status != "queued" for record in records)


async def test_an_idle_runner_waits_for_the_next_game_instead_of_ending(race: RaceGame) -> None:
    clock = Clock()
    store = InMemoryEventStore(clock, RunnerLimits(1, SLOT_TTL_MS))
    scheduler = RecordingScheduler()
    drainer = Drainer(store, None, None, None, SessionCache(8), 64, 10_000)
    runner = DrainRunner(store, drainer, scheduler, 60.0, 0, clock, round_size=4, idle_s=5.0)
    await stored_race(store, "g1")
    await submit(store, scheduler, "g1", "c1")
    job = asyncio.create_task(runner.run(scheduler.scheduled.pop(0)))
    async with asyncio.timeout(5):
        await decided(store, "g1", "c1")  # the runner applied c1 and waits for more

        await submit(store, scheduler, "g1", "c2")  # the waiting runner holds the only slot
        await decided(store, "g1", "c2")
    job.cancel()

    assert scheduler.scheduled == []  # no new runner job: the waiting one took c2
    with contextlib.suppress(asyncio.CancelledError):
        await job


async def decided(store: InMemoryEventStore, game_id: str, command_id: str) -> None:
    """Yield to the runner task until the command has an outcome."""
    while (record := await record_of(store, game_id, command_id)) is None or record.status == (
        "queued"
    ):
        await asyncio.sleep(0)
