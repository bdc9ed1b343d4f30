"""Poison commands: whatever one command does in the rules or the store, it gets a recorded
outcome, its game goes on to its next command, and the round's other games are unharmed.

The fakeredis tests run the real Lua scripts through the facade and the drain runner; the
in-memory ones reach the steps fakeredis cannot make fail (a commit, a round cut short).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

import fakeredis
import pytest

from domain.games import unregister
from service.adapters.store.redis_store import RedisEventStore
from service.api.asgi import create_litestar
from service.api.openapi import openapi_document
from service.core.codec import codec_for
from service.core.pipeline.drain import Drainer
from service.core.pipeline.runner import DrainRunner
from service.core.pipeline.session import SessionCache
from service.core.ports.event_store import CommitFailed, CommitOutcome
from service.core.ports.records import Batch, ReceivedCommand, RunnerLimits
from service.facade.history_side import HistoryService
from service.history.audit import audit_command
from service.history.disclosure import Audience
from service.shared.errors import InvalidInput
from service.shared.settings import Settings
from tests.fakes.poison import (
    DECIDE_FAILS,
    EVENT_UNSTORABLE,
    EVOLVE_FAILS,
    NAME,
    REFUSAL_UNSTORABLE,
    VIEW_FAILS,
    PoisonedRaceGame,
    register_poisoned_race,
)
from tests.fakes.race import RaceGame, race_config
from tests.fakes.scheduler import RecordingScheduler
from tests.unit.core.helpers import race_state, record_of, stored_race
from tests.unit.facade.harness import Harness, make_harness

pytestmark = pytest.mark.anyio

OPERATOR = Audience(operator=True)
MOVE = {"type": "Move", "steps": 1}

# Each poison, the step of the round it breaks, and the code its command is refused with.
POISONS = [
    pytest.param(DECIDE_FAILS, "engine.error", id="decide"),
    pytest.param(EVOLVE_FAILS, "engine.error", id="evolve"),
    pytest.param(EVENT_UNSTORABLE, "engine.error", id="encode-event"),
    pytest.param(REFUSAL_UNSTORABLE, "command.internal_error", id="encode-refusal"),
    pytest.param(VIEW_FAILS, "command.internal_error", id="project-views"),
]


@pytest.fixture
def poisoned(race: RaceGame) -> Iterator[PoisonedRaceGame]:
    game = register_poisoned_race()
    yield game
    unregister(game.name)


@pytest.fixture
async def harness(
    poisoned: PoisonedRaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> AsyncIterator[Harness]:
    made = make_harness(fake_redis, runner_round_size=4)
    yield made
    await made.skald.close()


async def new_game(harness: Harness) -> tuple[str, int]:
    """A poisoned race and the seat to act first."""
    game_id = (await harness.skald.commands.create_game(NAME, race_config())).game_id
    return game_id, (await harness.skald.reads.turn(game_id, None)).to_act[0]


async def submit(harness: Harness, game_id: str, seat: int, command_id: str, steps: int) -> None:
    await harness.skald.commands.submit(
        game_id, seat, command_id, {"type": "Move", "steps": steps}, "r"
    )


async def nothing_waits(harness: Harness, game_id: str) -> bool:
    """Whether every command of the game has its outcome and its lease is free."""
    store = harness.skald.store
    head = await store.head(game_id)
    assert head is not None
    return not await store.inbox(game_id, head.cursor, 1) and not await store.lease_held(game_id)


@pytest.mark.parametrize(("steps", "code"), POISONS)
@pytest.mark.parametrize("after_a_move", [False, True], ids=["alone", "after-a-move"])
async def test_a_poison_command_is_refused_and_its_game_and_round_mates_go_on(
    harness: Harness, steps: int, code: str, after_a_move: bool
) -> None:
    # Given a game where a seat sends a poison between legal moves, and a healthy game
    poisoned_id, first = await new_game(harness)
    healthy_id, healthy_first = await new_game(harness)
    seat = first
    if after_a_move:
        await submit(harness, poisoned_id, first, "before", 1)
        seat = 1 - first
    await submit(harness, poisoned_id, seat, "poison", steps)
    await submit(harness, poisoned_id, seat, "after", 1)
    await submit(harness, healthy_id, healthy_first, "healthy", 1)

    # When the runners drain them, in rounds holding both games
    await harness.run_jobs()

    # Then the poison is refused, on the record and in the audit; every other move applied
    skald = harness.skald
    refused = await skald.commands.outcome(poisoned_id, "poison")
    assert (refused.status, refused.code) == ("refused", code)
    audit = audit_command(
        await HistoryService(skald.store).history(poisoned_id), seat, "poison", OPERATOR
    )
    assert audit.refusal is not None and audit.refusal.code == code
    later = ["before", "after"] if after_a_move else ["after"]
    for command_id in later:
        assert (await skald.commands.outcome(poisoned_id, command_id)).status == "applied"
    assert (await skald.commands.outcome(healthy_id, "healthy")).status == "applied"
    # And nothing is left queued or leased, and the poisoned game's views show its moves
    assert await nothing_waits(harness, poisoned_id)
    assert await nothing_waits(harness, healthy_id)
    view = await skald.reads.turn(poisoned_id, None)
    assert view.version == (await skald.store.head(poisoned_id)).version  # type: ignore[union-attr]
    verification = await HistoryService(skald.store).verify(poisoned_id)
    assert verification.ok, [c for c in verification.checks if c.status == "failed"]


@pytest.mark.parametrize(
    ("command", "field"),
    [
        ({"type": "Move", "steps": 2**64}, "$.steps"),
        ({"type": "Move", "steps": -(2**63) - 1}, "$.steps"),
    ],
)
async def test_an_int_the_store_cannot_hold_is_refused_before_the_queue(
    harness: Harness, command: dict[str, Any], field: str
) -> None:
    game_id, seat = await new_game(harness)
    with pytest.raises(InvalidInput) as raised:
        await harness.skald.commands.submit(game_id, seat, "big", command, "r")
    assert (raised.value.status, raised.value.code) == (422, "command.out_of_range")
    assert raised.value.details == {"field": field}
    assert await record_of(harness.skald.store, game_id, "big") is None
    assert harness.scheduler.scheduled == []


@pytest.mark.parametrize(
    ("game", "command", "code"),
    [
        ("fjords", {"type": "PlaceTile", "tile": 2**64, "q": 0, "r": 0}, "command.out_of_range"),
        ("fjords", {"type": "PlaceTile", "tile": 1, "q": 2**64, "r": 0}, "command.out_of_range"),
        ("fjords", {"type": "PlaceViking", "q": 0, "r": -(2**64)}, "command.out_of_range"),
        ("fjords", {"type": "PlaceTile", "tile": 1, "q": 1001, "r": 0}, "command.bad_payload"),
        ("fjords", {"type": "PlaceTile", "tile": -1, "q": 0, "r": 0}, "command.bad_payload"),
        ("looot", {"type": "PlaceViking", "space": [2**64, 0]}, "command.out_of_range"),
        ("looot", {"type": "PlaceViking", "space": [0, 1001]}, "command.bad_payload"),
        ("looot", {"type": "ClaimTrophy", "axes": 2**63}, "command.out_of_range"),
    ],
)
def test_the_games_commands_are_bounded(game: str, command: dict[str, Any], code: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        codec_for(game).parse_command(command)
    assert raised.value.code == code


def test_the_bounds_are_in_the_openapi_document() -> None:
    schemas = openapi_document(create_litestar(Settings()))["components"]["schemas"]
    q = schemas["FjordsPlaceTile"]["properties"]["q"]
    assert (q["minimum"], q["maximum"]) == (-1000, 1000)
    space = schemas["LoootPlaceViking"]["properties"]["space"]
    assert [item["maximum"] for item in space["prefixItems"]] == [1000, 1000]
    # And a legal command still decodes as before
    assert codec_for("fjords").parse_command({"type": "PlaceTile", "tile": 67, "q": -3, "r": 2})


# --- the store over fakeredis: a failing commit, a crashed round --------------------------------


class FailingCommits(RedisEventStore):
    """A store whose commits fail (as an unwritable batch would) for batches that apply one
    of `poisoned` (its refusal alone can be written) or decide one of `unwritable`, and whose
    round commits raise once after `crash_rounds` is set."""

    def __init__(
        self,
        redis: fakeredis.aioredis.FakeRedis,
        poisoned: set[str],
        unwritable: set[str] | None = None,
    ) -> None:
        super().__init__(redis, "t:", runners=RunnerLimits(1, 60_000))
        self.poisoned = poisoned
        self.unwritable = unwritable or set()  # not even their refusal can be written
        self.crash_rounds = 0

    def _poisoned(self, batch: Batch) -> bool:
        return any(
            decided.command_id in self.unwritable
            or (decided.command_id in self.poisoned and decided.record.status == "applied")
            for decided in batch.decided
        )

    async def commit(self, game_id: str, batch: Batch) -> Any:
        if self._poisoned(batch):
            raise CommitFailed(game_id, "this batch cannot be written")
        return await super().commit(game_id, batch)

    async def commit_round(self, batches: Sequence[tuple[str, Batch]]) -> list[CommitOutcome]:
        outcomes: list[CommitOutcome] = []
        for game_id, batch in batches:
            if self._poisoned(batch):
                outcomes.append(CommitFailed(game_id, "this batch cannot be written"))
            else:
                outcomes.extend(await super().commit_round([(game_id, batch)]))
        return outcomes

    async def commit_round_then_take(
        self, batches: Sequence[tuple[str, Batch]], runner_job_id: str, count: int, wait_s: float
    ) -> tuple[list[CommitOutcome], list[str]]:
        if self.crash_rounds:
            self.crash_rounds -= 1
            raise ConnectionError("the connection dropped mid-round")
        outcomes = await self.commit_round(batches)
        _, taken = await super().commit_round_then_take([], runner_job_id, count, wait_s)
        return outcomes, taken


async def submit_move(
    store: RedisEventStore,
    scheduler: RecordingScheduler,
    game_id: str,
    command_id: str,
    seat: int,
) -> None:
    codec = codec_for("race")
    body = codec.canonical(codec.parse_command(MOVE))
    job_id = scheduler.new_job_id()
    result = await store.submit(game_id, ReceivedCommand(seat, command_id, "r", body), job_id, 0, 1)
    if getattr(result, "start_runner", False):
        await scheduler.schedule(job_id)


class Pauses:
    """Sleeps that return at once, each recorded with the runner jobs scheduled by then."""

    def __init__(self, scheduler: RecordingScheduler) -> None:
        self.scheduler = scheduler
        self.taken: list[tuple[float, int]] = []

    async def __call__(self, seconds: float) -> None:
        self.taken.append((seconds, len(self.scheduler.scheduled)))


def runner_on(
    store: RedisEventStore, pauses: list[Pauses] | None = None
) -> tuple[RecordingScheduler, DrainRunner]:
    scheduler = RecordingScheduler()
    drainer = Drainer(store, None, None, None, SessionCache(8), 64, 60_000)
    sleep = Pauses(scheduler)
    if pauses is not None:
        pauses.append(sleep)
    return scheduler, DrainRunner(store, drainer, scheduler, 60.0, round_size=4, sleep=sleep)


async def test_a_command_whose_commit_fails_is_refused_and_the_game_goes_on(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    # Given a batch of three moves whose middle one cannot be committed, and a healthy game
    store = FailingCommits(fake_redis, {"middle"})
    scheduler, runner = runner_on(store)
    first = race_state().turn
    for game_id in ("g1", "g2"):
        await stored_race(store, game_id)
    await submit_move(store, scheduler, "g1", "first", first)
    await submit_move(store, scheduler, "g1", "middle", 1 - first)
    await submit_move(store, scheduler, "g1", "last", 1 - first)
    await submit_move(store, scheduler, "g2", "healthy", first)

    await scheduler.run_all(runner)

    # Then the middle one alone is refused, the others applied, and nothing waits
    outcomes = {c: await record_of(store, "g1", c) for c in ("first", "middle", "last")}
    assert {c: r.status for c, r in outcomes.items() if r} == {
        "first": "applied",
        "middle": "refused",
        "last": "applied",
    }
    assert outcomes["middle"] is not None and outcomes["middle"].code == "command.internal_error"
    assert (await record_of(store, "g2", "healthy")).status == "applied"  # type: ignore[union-attr]
    for game_id in ("g1", "g2"):
        head = await store.head(game_id)
        assert head is not None and await store.inbox(game_id, head.cursor, 1) == []
        assert not await store.lease_held(game_id)


async def test_a_crashed_round_gives_its_leases_and_its_slot_back_at_once(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    # Given three games ready and a round whose commit crashes (leases and slots last a
    # minute, so none expires during the test: whatever is free again was given back)
    store = FailingCommits(fake_redis, set())
    scheduler, runner = runner_on(store)
    for n in range(3):
        await stored_race(store, f"g{n}")
        await submit_move(store, scheduler, f"g{n}", f"c{n}", race_state().turn)
    [job] = scheduler.scheduled
    scheduler.scheduled.clear()
    store.crash_rounds = 1

    # When the runner's round crashes
    report = await runner.run(job)

    # Then the job ends cleanly, every lease is free, and its slot went to a successor
    assert report.failed and report.rounds == 0
    assert [await store.lease_held(f"g{n}") for n in range(3)] == [False] * 3
    assert report.successor is not None and scheduler.scheduled == [report.successor]
    # And the successor applies every move
    await scheduler.run_all(runner)
    for n in range(3):
        assert (await record_of(store, f"g{n}", f"c{n}")).status == "applied"  # type: ignore[union-attr]


async def test_a_runner_whose_round_crashed_pauses_before_handing_its_slot_on(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    # Given a game ready and rounds that crash every time (a bug in the drain's own code)
    store = FailingCommits(fake_redis, set())
    pauses: list[Pauses] = []
    scheduler, runner = runner_on(store, pauses)
    await stored_race(store, "g1")
    await submit_move(store, scheduler, "g1", "c1", race_state().turn)
    store.crash_rounds = 3

    # When runners run until the rounds stop crashing
    ran = await scheduler.run_all(runner)

    # Then each crashed runner paused before its successor was scheduled, and a runner that
    # did not crash did not pause; the move is applied in the end
    assert ran == 4
    assert pauses[0].taken == [(runner.failure_pause_s, 0)] * 3
    assert runner.failure_pause_s > 0
    assert (await record_of(store, "g1", "c1")).status == "applied"  # type: ignore[union-attr]


async def test_a_game_that_cannot_record_even_a_refusal_rests_instead_of_spinning(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    # Given a game whose store takes no outcome of one command, beside a healthy game
    store = FailingCommits(fake_redis, set(), unwritable={"stuck"})
    scheduler, runner = runner_on(store)
    for game_id in ("g1", "g2"):
        await stored_race(store, game_id)
    await submit_move(store, scheduler, "g1", "stuck", race_state().turn)
    await submit_move(store, scheduler, "g2", "healthy", race_state().turn)

    # When the runners run until none is scheduled (a spinning game would never let them end)
    ran = await scheduler.run_all(runner)

    # Then the healthy game's move is applied, and the stuck game rests under its lease (the
    # sweeper wakes it once the lease expires), its command still queued
    assert ran == 1
    assert (await record_of(store, "g2", "healthy")).status == "applied"  # type: ignore[union-attr]
    assert (await record_of(store, "g1", "stuck")).status == "queued"  # type: ignore[union-attr]
    assert await store.lease_held("g1") and not await store.lease_held("g2")
