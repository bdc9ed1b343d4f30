"""Turn timers on a real Redis with real worker processes and a short real clock (1 s a move):
a player who goes silent halfway is timed out, then abandoned, and a bot finishes the game;
a deadline that passes while no worker runs survives a Redis restart and a worker SIGKILLed
before acting on it, and is acted on exactly once."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from contracts.api import Turn
from contracts.stream import Clock, SeatAbandoned, TurnTimedOut
from service import bootstrap
from service.core.codec import codec_for
from service.core.pipeline.deadlines import fire_due
from service.facade.skald import Skald
from service.shared.settings import Settings
from tests.fakes.race import race_config, register_race
from tests.integration.conftest import PLUGINS, Workers
from tests.integration.test_redis_restart import OwnRedis, own_redis  # noqa: F401

pytestmark = [pytest.mark.anyio, pytest.mark.redis]
SECOND_CLOCK = Clock(per_move_s=1.0, abandon_after=2)
DAY_S = 86_400.0
RACES = 500


async def wait_turn(
    skald: Skald, game_id: str, done: Callable[[Turn], bool], timeout_s: float = 30.0
) -> Turn:
    """The game's public turn once `done` holds, woken by the game's updates."""
    async with asyncio.timeout(timeout_s), skald.notifier.listen(game_id) as versions:
        while not done(turn := await skald.reads.turn(game_id, None)):
            await versions.get()
        return turn


async def service_events(skald: Skald, game_id: str) -> list[object]:
    codec = codec_for("race")
    return [codec.decode_event(e.data) for e in await skald.store.read(game_id)]


async def test_a_silent_player_is_timed_out_and_a_bot_finishes_the_game(
    skald: Skald, workers: Workers
) -> None:
    workers.start(2)
    game_id = (
        await skald.commands.create_game("race", race_config(2, 24), clock=SECOND_CLOCK)
    ).game_id
    first = (await skald.reads.turn(game_id, None)).to_act[0]
    silent, moves = 1 - first, 0
    while not (turn := await skald.reads.turn(game_id, None)).finished:
        seat = turn.to_act[0]
        if seat == silent and moves >= 4:  # halfway: the silent player stops
            version = turn.version
            await wait_turn(skald, game_id, lambda t, v=version: t.version > v)  # type: ignore[misc]
            continue
        legal = (await skald.reads.turn(game_id, seat)).legal_commands
        command_id = f"m{moves}"
        await skald.commands.submit(game_id, seat, command_id, legal[0], "r")
        outcome = await skald.commands.wait_outcome(game_id, command_id, 20)
        assert outcome.status == "applied", outcome
        moves += 1
    events = await service_events(skald, game_id)
    timed_out = [e for e in events if isinstance(e, TurnTimedOut)]
    assert timed_out == [TurnTimedOut(silent, 1), TurnTimedOut(silent, 2)]
    assert SeatAbandoned(silent) in events
    # Deadlines the game ended are unindexed after each commit; one may stay (its timeout is
    # then refused): once fired, none of them times anybody out.
    deadlines = skald.commands.deadlines
    assert deadlines is not None
    await fire_due(deadlines, skald.store, skald.commands.scheduler, 2**62)
    await wait_turn(skald, game_id, lambda t: t.finished)
    after = [e for e in await service_events(skald, game_id) if isinstance(e, TurnTimedOut)]
    assert after == timed_out


async def test_a_deadline_survives_a_redis_restart_and_a_killed_worker(
    own_redis: OwnRedis,  # noqa: F811
) -> None:
    register_race()
    settings = Settings(
        redis_url=own_redis.url, plugins=PLUGINS, lease_ttl_s=2.0, runner_slot_ttl_s=1.0,
        sweep_interval_s=0.2, sweep_grace_s=0.2, rate_per_seat=0,
    )  # fmt: skip
    workers = Workers(settings)
    skald = await bootstrap.connect(settings)
    try:
        game_id = (
            await skald.commands.create_game("race", race_config(2, 100), clock=SECOND_CLOCK)
        ).game_id
        turn = await skald.reads.turn(game_id, None)
        [seat] = turn.to_act
        # The deadline passes with no worker running; then Redis restarts (AOF), then the
        # first worker is killed at once, wherever it got to, and a second one takes over.
        now = await skald.commands.deadlines.now_ms()  # type: ignore[union-attr]
        await asyncio.sleep(max(0.0, (turn.deadlines[seat] - now) / 1000))  # a real deadline
        own_redis.kill()
        own_redis.start()
        workers.start(1)
        workers.kill(0)
        workers.start(1)
        await wait_turn(skald, game_id, lambda t: seat not in t.to_act)
        events = await service_events(skald, game_id)
        assert [e for e in events if isinstance(e, TurnTimedOut)] == [TurnTimedOut(seat, 1)]
    finally:
        await skald.close()
        workers.stop()


async def test_a_deadline_and_a_late_move_race_500_times_and_exactly_one_applies(
    skald: Skald, workers: Workers
) -> None:
    workers.start(2)
    deadlines = skald.commands.deadlines
    assert deadlines is not None
    clock = Clock(per_move_s=DAY_S)
    games: list[tuple[str, int, int]] = []
    for _ in range(RACES):
        game_id = (await skald.commands.create_game("race", race_config(), clock=clock)).game_id
        turn = await skald.reads.turn(game_id, None)
        [seat] = turn.to_act
        games.append((game_id, seat, turn.deadlines[seat]))

    async def race(game_id: str, seat: int, deadline: int) -> tuple[str, int]:
        move = {"type": "Move", "steps": 1}
        late = skald.commands.submit(game_id, seat, "late", move, "r")
        await asyncio.gather(
            late, fire_due(deadlines, skald.store, skald.commands.scheduler, deadline)
        )
        outcome = await skald.commands.wait_outcome(game_id, "late", 30)
        events = await service_events(skald, game_id)
        return outcome.status, sum(isinstance(e, TurnTimedOut) for e in events)

    results = []
    for start in range(0, RACES, 50):
        results += await asyncio.gather(*(race(*game) for game in games[start : start + 50]))
    for status, timeouts in results:
        assert (status, timeouts) in {("applied", 0), ("refused", 1)}
    assert {status for status, _ in results} <= {"applied", "refused"}
