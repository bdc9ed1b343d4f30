"""The sweeper finds commands whose drain job was lost, and leaves live drains alone."""

from __future__ import annotations

from collections.abc import AsyncIterator

import fakeredis
import pytest

from service.pipeline.sweep import sweep
from tests.fakes.race import RaceGame, race_config
from tests.unit.service.harness import Harness, make_harness

pytestmark = pytest.mark.anyio


@pytest.fixture
async def harness(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> AsyncIterator[Harness]:
    harness = make_harness(fake_redis)
    yield harness
    await harness.skald.close()


async def submitted_game(harness: Harness) -> tuple[str, str]:
    """A game with one command queued; (game id, the drain job id the submit scheduled)."""
    skald = harness.skald
    game_id = (await skald.create_game("race", race_config())).game_id
    seat = (await skald.turn(game_id, None)).to_act[0]
    await skald.submit(game_id, seat, "c1", {"type": "Move", "steps": 1}, "r")
    (_, job_id), *_ = harness.scheduler.scheduled
    return game_id, job_id


async def run_sweep(harness: Harness, stale_ms: int = 60_000) -> tuple[int, int]:
    skald = harness.skald
    report = await sweep(skald.store, skald.pending, harness.scheduler, 0, stale_ms)
    return report.requeued, report.forgotten


async def test_a_lost_drain_job_is_queued_again_and_the_game_moves_on(harness: Harness) -> None:
    game_id, lost_job = await submitted_game(harness)
    harness.scheduler.scheduled.clear()
    harness.scheduler.statuses.clear()  # the job vanished with its worker

    requeued, _ = await run_sweep(harness)
    await harness.run_jobs()

    assert requeued == 1
    assert (await harness.skald.outcome(game_id, "c1")).status == "applied"
    assert await harness.skald.store.drain_flag(game_id) is None
    assert lost_job not in harness.scheduler.statuses


async def test_a_queued_drain_job_is_left_to_run(harness: Harness) -> None:
    await submitted_game(harness)

    requeued, forgotten = await run_sweep(harness, stale_ms=0)

    assert (requeued, forgotten) == (0, 0)
    assert len(harness.scheduler.scheduled) == 1


async def test_a_game_whose_lease_is_held_is_left_to_its_worker(harness: Harness) -> None:
    game_id, job_id = await submitted_game(harness)
    harness.scheduler.statuses[job_id] = "started"
    assert await harness.skald.store.acquire_lease(game_id, 10_000) is not None

    requeued, _ = await run_sweep(harness, stale_ms=0)

    assert requeued == 0


async def test_a_started_job_without_a_lease_is_presumed_dead_once_stale(
    harness: Harness,
) -> None:
    _, job_id = await submitted_game(harness)
    harness.scheduler.statuses[job_id] = "started"  # its worker was killed mid-job

    fresh = await run_sweep(harness, stale_ms=60_000)
    stale = await run_sweep(harness, stale_ms=0)

    assert (fresh[0], stale[0]) == (0, 1)


async def test_games_with_nothing_waiting_are_forgotten(harness: Harness) -> None:
    await submitted_game(harness)
    await harness.run_jobs()

    first = await run_sweep(harness)
    second = await run_sweep(harness)

    assert first == (0, 1)
    assert second == (0, 0)


async def test_a_job_taken_off_the_queue_by_a_dead_worker_is_replaced(harness: Harness) -> None:
    _, job_id = await submitted_game(harness)
    harness.scheduler.statuses[job_id] = "lost"  # RQ says queued, but no queue holds it

    requeued, _ = await run_sweep(harness)

    assert requeued == 1
