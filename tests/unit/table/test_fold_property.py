"""Folding a table's recorded events gives the table its decisions kept: at every command of
any game under any clock policy (hypothesis draws the game, the policy and the seed), and for
a game the drain played over a store (the session it cached against the stored stream)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import fakeredis
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contracts.stream import Clock
from domain.games import builtin_game_names, get_game
from domain.table import Table, evolve
from service.core.codec import codec_for
from service.core.pipeline.deadlines import fire_due
from tests.unit.facade.harness import Harness, make_harness
from tests.unit.table.tables import POLICIES, opened, refolded, snapshot, step

GAMES = builtin_game_names()


@settings(max_examples=30, deadline=None)
@given(
    name=st.sampled_from(GAMES),
    policy=st.sampled_from(sorted(POLICIES)),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_folding_the_recorded_events_gives_the_table_kept(
    name: str, policy: str, seed: int
) -> None:
    game = get_game(name)
    clock = POLICIES[policy]
    if clock.on_timeout == "skip" and not game.may_pass:
        clock = POLICIES["bot"]
    rng = random.Random(seed)
    played = opened(game, seed.to_bytes(32, "big"), clock)
    for command_no in range(25):
        if played.table.finished:
            break
        step(played, rng, command_no)
        assert snapshot(refolded(played)) == snapshot(played.table)


@pytest.fixture
async def harness(fake_redis: fakeredis.aioredis.FakeRedis) -> AsyncIterator[Harness]:
    made = make_harness(fake_redis, rate_per_seat=0)
    yield made
    await made.skald.close()


async def stored_table(harness: Harness, game_id: str, game_name: str) -> Table:
    """The table folded from the game's stored stream."""
    codec = codec_for(game_name)
    meta = await harness.skald.store.meta(game_id)
    seed = await harness.skald.store.seed(game_id)
    assert meta is not None and seed is not None
    table = Table.new(codec.game, meta.seats, meta.rules_version, seed)
    for stored in await harness.skald.store.read(game_id):
        evolve(table, codec.decode_event(stored.data))
    return table


async def abandoned_seat(harness: Harness, game_id: str) -> int:
    """A seat the drained table has abandoned to a bot."""
    session = harness.drainer.cache.take(game_id)
    assert session is not None and session.table.abandoned
    harness.drainer.cache.put(session)
    return min(session.table.abandoned)


@pytest.mark.anyio
async def test_the_drain_keeps_the_table_its_stored_events_fold_into(harness: Harness) -> None:
    clock = Clock(per_move_s=3600, abandon_after=1, take_back=True)
    created = await harness.skald.commands.create_game("landnam", {"players": 3}, clock=clock)
    game_id, commands, reads = created.game_id, harness.skald.commands, harness.skald.reads
    deadlines = commands.deadlines
    assert deadlines is not None
    rng = random.Random(7)
    taken_back: int | None = None
    for step_no, action in enumerate(("move", "move", "timeout", "back", "move", "timeout")):
        turn = await reads.turn(game_id, None)
        seat = turn.to_act[0]
        if action == "timeout":  # the seat's deadline passes: a bot takes the seat
            await fire_due(deadlines, harness.skald.store, harness.scheduler, turn.deadlines[seat])
        else:
            legal = (await reads.turn(game_id, seat)).legal_commands
            if action == "back":  # the abandoned seat's player comes back (out of turn)
                seat = taken_back = await abandoned_seat(harness, game_id)
            await commands.submit(game_id, seat, f"m{step_no}", rng.choice(legal), "r")
        await harness.run_jobs()
        session = harness.drainer.cache.take(game_id)
        assert session is not None
        stored = await stored_table(harness, game_id, "landnam")
        assert snapshot(session.table) == snapshot(stored)
        harness.drainer.cache.put(session)
        if action == "back":  # the take-back stands, whatever the rules said of the command
            assert taken_back not in stored.abandoned | stored.bots
    assert taken_back is not None
