"""The sweeper wakes games no runner will reach, and leaves the others alone."""

from __future__ import annotations

from collections.abc import AsyncIterator

import fakeredis
import pytest

from service.adapters.store.keys import runners_key
from service.adapters.store.side import PendingIndex
from service.core.pipeline.sweep import SweepReport, sweep
from tests.fakes.race import RaceGame, race_config
from tests.fakes.rounds import take_lease
from tests.unit.facade.harness import Harness, make_harness

pytestmark = pytest.mark.anyio


@pytest.fixture
async def harness(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> AsyncIterator[Harness]:
    harness = make_harness(fake_redis, max_runners=1)  # one runner: its slot is "all alive"
    yield harness
    await harness.skald.close()


async def submitted_game(harness: Harness) -> tuple[str, str]:
    """A game with one command queued; (game id, the runner job the submit scheduled)."""
    skald = harness.skald
    game_id = (await skald.commands.create_game("race", race_config())).game_id
    seat = (await skald.reads.turn(game_id, None)).to_act[0]
    await skald.commands.submit(game_id, seat, "c1", {"type": "Move", "steps": 1}, "r")
    (job_id,) = harness.scheduler.scheduled
    return game_id, job_id


async def runner_died(harness: Harness, job_id: str, holding_the_game: bool) -> None:
    """The runner's worker was killed (after taking the game, if so) and its slot expired."""
    harness.scheduler.scheduled.remove(job_id)
    if holding_the_game:
        assert await harness.skald.store.take_ready(job_id)
    await harness.skald.redis.delete(runners_key(harness.skald.settings.key_prefix))


async def run_sweep(harness: Harness) -> SweepReport:
    skald = harness.skald
    pending = PendingIndex(skald.redis, skald.settings.key_prefix, skald.store.scripts)
    return await sweep(skald.store, pending, harness.scheduler, grace_ms=0)


async def test_a_game_a_dead_runner_took_is_woken_and_moves_on(harness: Harness) -> None:
    game_id, job_id = await submitted_game(harness)
    await runner_died(harness, job_id, holding_the_game=True)

    report = await run_sweep(harness)
    await harness.run_jobs()

    assert (report.woken, report.runners_started) == (1, 1)
    assert (await harness.skald.commands.outcome(game_id, "c1")).status == "applied"


async def test_a_runner_never_enqueued_is_replaced_once_its_slot_expired(
    harness: Harness,
) -> None:
    game_id, job_id = await submitted_game(harness)
    await runner_died(harness, job_id, holding_the_game=False)  # the API died instead

    report = await run_sweep(harness)
    await harness.run_jobs()

    assert report.runners_started == 1
    assert (await harness.skald.commands.outcome(game_id, "c1")).status == "applied"


async def test_a_game_waiting_for_a_live_runner_is_left_to_it(harness: Harness) -> None:
    game_id, job_id = await submitted_game(harness)

    report = await run_sweep(harness)

    assert report.runners_started == 0
    assert harness.scheduler.scheduled == [job_id]
    assert await harness.skald.store.take_ready(job_id, 10) == [game_id]  # still ready, once


async def test_a_game_whose_lease_is_held_is_left_to_its_worker(harness: Harness) -> None:
    game_id, job_id = await submitted_game(harness)
    await runner_died(harness, job_id, holding_the_game=True)
    assert await take_lease(harness.skald.store, game_id, 10_000) is not None

    report = await run_sweep(harness)

    assert (report.woken, report.runners_started) == (0, 0)


async def test_games_with_nothing_waiting_are_forgotten(harness: Harness) -> None:
    await submitted_game(harness)
    await harness.run_jobs()

    first = await run_sweep(harness)
    second = await run_sweep(harness)

    assert (first.forgotten, first.woken) == (1, 0)
    assert (second.visited, second.forgotten) == (0, 0)
