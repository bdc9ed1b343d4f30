"""Turn timers through the facade and the drain, under a clock the test controls: deadlines
in the turn, timeouts through the inbox (ordered against a late move, never twice), a bot
standing in, and a seat abandoned after missed turns."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import fakeredis
import pytest

from contracts.stream import Clock, SeatAbandoned, TurnClocks, TurnTimedOut
from service.core.codec import codec_for
from service.core.pipeline.deadlines import fire_due
from service.core.ports.command_keys import shown_id
from tests.fakes.race import RaceGame, race_config
from tests.unit.facade.harness import Harness, make_harness

pytestmark = pytest.mark.anyio
DAY_S = 86_400.0


@pytest.fixture
async def harness(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> AsyncIterator[Harness]:
    made = make_harness(fake_redis, rate_per_seat=0)
    yield made
    await made.skald.close()


async def timed_game(harness: Harness, abandon_after: int = 3, target: int = 12) -> str:
    clock = Clock(per_move_s=DAY_S, abandon_after=abandon_after)
    created = await harness.skald.commands.create_game(
        "race", race_config(target=target), clock=clock
    )
    return created.game_id


async def fire(harness: Harness, now_ms: int) -> int:
    deadlines = harness.skald.commands.deadlines
    assert deadlines is not None
    report = await fire_due(deadlines, harness.skald.store, harness.scheduler, now_ms)
    await harness.run_jobs()
    return report.fired


async def service_events(harness: Harness, game_id: str) -> list[tuple[Any, str | None]]:
    codec = codec_for("race")
    return [
        (codec.decode_event(e.data), shown_id(e.command_id))
        for e in await harness.skald.store.read(game_id)
    ]


async def test_a_deadline_is_in_the_turn_and_fires_only_once_it_passes(harness: Harness) -> None:
    game_id = await timed_game(harness)
    turn = await harness.skald.reads.turn(game_id, None)
    [seat] = turn.to_act
    deadline = turn.deadlines[seat]
    assert await fire(harness, deadline - 1) == 0
    assert await fire(harness, deadline) == 1
    events = await service_events(harness, game_id)
    assert (TurnTimedOut(seat, 1), f"sys:timeout:{seat}:{_since(events, seat)}") in events
    assert any(cid is not None and cid.startswith(f"bot:{seat}:") for _, cid in events)
    after = await harness.skald.reads.turn(game_id, None)
    assert after.to_act == [1 - seat] and after.deadlines[1 - seat] > deadline - 1


def _since(events: list[tuple[Any, str | None]], seat: int) -> int:
    """The version of the first TurnClocks event that set `seat`'s deadline."""
    for version, (event, _) in enumerate(events, start=1):
        if isinstance(event, TurnClocks) and any(e.seat == seat for e in event.entries):
            return version
    raise AssertionError("no deadline set")


async def test_a_deadline_submitted_again_after_a_crash_does_not_fire_twice(
    harness: Harness,
) -> None:
    game_id = await timed_game(harness)
    turn = await harness.skald.reads.turn(game_id, None)
    [seat] = turn.to_act
    deadline = turn.deadlines[seat]
    since = _since(await service_events(harness, game_id), seat)
    assert await fire(harness, deadline) == 1
    deadlines = harness.skald.commands.deadlines
    assert deadlines is not None
    await deadlines.add(game_id, [(seat, since, deadline)])  # as if never removed
    assert await fire(harness, deadline) == 0
    timed_out = [
        e for e, _ in await service_events(harness, game_id) if isinstance(e, TurnTimedOut)
    ]
    assert timed_out == [TurnTimedOut(seat, 1)]


async def test_a_late_move_and_its_deadline_race_and_exactly_one_applies(
    harness: Harness,
) -> None:
    draw = random.Random(7)
    commands = harness.skald.commands
    for attempt in range(60):
        game_id = await timed_game(harness)
        turn = await harness.skald.reads.turn(game_id, None)
        [seat] = turn.to_act
        move_first = draw.random() < 0.5
        if move_first:
            await commands.submit(game_id, seat, "late", {"type": "Move", "steps": 1}, "r")
            await fire(harness, turn.deadlines[seat])
        else:
            deadlines = commands.deadlines
            assert deadlines is not None
            await fire_due(deadlines, harness.skald.store, harness.scheduler, turn.deadlines[seat])
            await commands.submit(game_id, seat, "late", {"type": "Move", "steps": 1}, "r")
        await harness.run_jobs()
        move = await commands.outcome(game_id, "late")
        events = await service_events(harness, game_id)
        timeout_applied = any(isinstance(e, TurnTimedOut) for e, _ in events)
        assert (move.status == "applied") != timeout_applied, attempt
        assert move.status == ("applied" if move_first else "refused")
        if move_first:
            stale = [cid for _, cid in events if cid and cid.startswith("sys:timeout")]
            assert stale == []
            record = await commands.outcome(game_id, f"sys:timeout:{seat}:{_since(events, seat)}")
            assert (record.status, record.code) == ("refused", "timer.stale")


async def test_a_silent_player_is_abandoned_and_a_bot_finishes_the_game(
    harness: Harness,
) -> None:
    commands = harness.skald.commands
    game_id = await timed_game(harness, abandon_after=2, target=30)
    first = (await harness.skald.reads.turn(game_id, None)).to_act[0]
    silent = 1 - first
    moves = 0
    for step in range(300):
        turn = await harness.skald.reads.turn(game_id, first)
        if turn.finished:
            break
        if first in turn.to_act:
            await commands.submit(game_id, first, f"m{step}", turn.legal_commands[0], "r")
            await harness.run_jobs()
            moves += 1
        else:
            assert turn.to_act == [silent]
            assert await fire(harness, turn.deadlines[silent]) == 1
    else:
        raise AssertionError("the game never finished")
    events = [e for e, _ in await service_events(harness, game_id)]
    assert [e for e in events if isinstance(e, TurnTimedOut)] == [
        TurnTimedOut(silent, 1),
        TurnTimedOut(silent, 2),
    ]
    assert SeatAbandoned(silent) in events
    assert moves > 2  # the game went on after the seat was abandoned, with no timer on it
    verified = await harness.skald.history.verify(game_id)
    assert verified.ok, verified
