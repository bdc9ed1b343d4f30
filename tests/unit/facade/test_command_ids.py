"""Command ids are per seat: two seats may use the same id, each gets its own command, and
the whole history (outcomes, replay, audit, verify) tells them apart by seat. Games whose
records were written before ids were per seat (keyed by the bare id) keep working.

On fakeredis, through the facade, the real Lua scripts and the drain.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import fakeredis
import pytest

from service.adapters.store.keys import GameKeys
from service.history.audit import audit_command
from service.history.disclosure import OPERATOR, SPECTATOR
from service.history.history_errors import AmbiguousCommand
from service.shared.errors import Conflict, NotFound
from tests.fakes.race import RaceGame, race_config
from tests.unit.facade.harness import Harness, make_harness

pytestmark = pytest.mark.anyio
MOVE = {"type": "Move", "steps": 1}
PREFIX = "t:"  # make_harness's key prefix


@pytest.fixture
async def harness(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> AsyncIterator[Harness]:
    harness = make_harness(fake_redis)
    yield harness
    await harness.skald.close()


async def new_game(harness: Harness) -> tuple[str, int]:
    """A seated race and the seat to act first."""
    game_id = (await harness.skald.commands.create_game("race", race_config())).game_id
    turn = await harness.skald.reads.turn(game_id, None)
    return game_id, turn.to_act[0]


async def play(harness: Harness, game_id: str, seat: int, command_id: str) -> Any:
    """One move of `seat` under `command_id`, submitted and decided."""
    await harness.skald.commands.submit(game_id, seat, command_id, MOVE, "r")
    await harness.run_jobs()
    return await harness.skald.commands.outcome(game_id, command_id, seat=seat)


async def to_bare_ids(redis: fakeredis.aioredis.FakeRedis, game_id: str) -> None:
    """Rewrite a game as the store wrote it before command ids were per seat: the commands
    hash keyed by the bare id, and each event tagged with the bare id."""
    keys = GameKeys(PREFIX, game_id)
    records = await redis.hgetall(keys.commands)
    entries = await redis.xrange(keys.events)
    async with redis.pipeline(transaction=True) as pipe:
        pipe.delete(keys.commands, keys.events)
        for field, record in records.items():
            pipe.hset(keys.commands, field.split(b":", 1)[1], record)
        for entry_id, fields in entries:
            if b"c" in fields and not fields[b"c"].startswith(b"bot:"):
                fields = {**fields, b"c": fields[b"c"].split(b":", 1)[1]}
            pipe.xadd(keys.events, fields, id=entry_id)
        await pipe.execute()


async def test_two_seats_using_one_id_each_get_their_command_applied(harness: Harness) -> None:
    # Given a game where the first seat moved under the id "m"
    game_id, first = await new_game(harness)
    second = 1 - first
    mine = await play(harness, game_id, first, "m")
    # When the other seat moves under the same id
    queued = await harness.skald.commands.submit(game_id, second, "m", MOVE, "r")
    await harness.run_jobs()
    # Then its reply is a plain "queued" for its own seat, and both moves applied in turn
    assert (queued.status, queued.seat) == ("queued", second)
    theirs = await harness.skald.commands.outcome(game_id, "m", seat=second)
    assert (mine.status, mine.first_version) == ("applied", 6)
    assert (theirs.status, theirs.first_version) == ("applied", 7)
    # And the events a client reads name its own id
    page = await harness.skald.reads.events_after(game_id, 5, None, 100)
    assert [event.command_id for event in page.events] == ["m", "m"]


async def test_replay_audit_and_verify_tell_clashing_ids_apart_by_seat(harness: Harness) -> None:
    # Given a game where both seats used the same ids, and a refusal under one of them
    game_id, first = await new_game(harness)
    second = 1 - first
    for command_id in ("a", "b"):
        await play(harness, game_id, first, command_id)
        await play(harness, game_id, second, command_id)
    refused = await play(harness, game_id, second, "c")  # not its turn
    await play(harness, game_id, first, "c")
    assert refused.status == "refused"
    history = harness.skald.history
    # Then the record verifies
    verification = await history.verify(game_id)
    assert verification.ok, [check for check in verification.checks if check.status == "failed"]
    # And the move list has each seat's command under its id
    frame = await history.replay(game_id, OPERATOR)
    assert [(move.seat, move.command_id, move.status) for move in frame.moves] == [
        (first, "a", "applied"),
        (second, "a", "applied"),
        (first, "b", "applied"),
        (second, "b", "applied"),
        (second, "c", "refused"),
        (first, "c", "applied"),
    ]
    # And the audit of a command names it by seat and id; by id alone it is ambiguous
    decoded = await history.history(game_id)
    for seat in (first, second):
        audit = audit_command(decoded, seat, "b", OPERATOR)
        assert audit.command is not None and audit.command.seat == seat
        assert audit.status == "applied" and audit.events
    assert audit_command(decoded, second, "c", OPERATOR).status == "refused"
    with pytest.raises(AmbiguousCommand) as ambiguous:
        audit_command(decoded, None, "a", SPECTATOR)
    assert ambiguous.value.details == {"seats": [first, second]}


async def test_a_game_recorded_with_bare_ids_reads_and_goes_on(
    harness: Harness, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    # Given a game stored as before ids were per seat: two moves decided, one still queued
    game_id, first = await new_game(harness)
    second = 1 - first
    await play(harness, game_id, first, "a")
    await play(harness, game_id, second, "b")
    await harness.skald.commands.submit(game_id, first, "q", MOVE, "r")
    await to_bare_ids(fake_redis, game_id)
    assert set(await fake_redis.hkeys(GameKeys(PREFIX, game_id).commands)) == {b"a", b"b", b"q"}
    commands = harness.skald.commands
    # Then each old record is read back by its own seat only
    assert (await commands.outcome(game_id, "a", seat=first)).first_version == 6
    with pytest.raises(NotFound):
        await commands.outcome(game_id, "a", seat=second)
    # And a retry by the same seat is the same command, a clash of its own is refused
    again = await commands.submit(game_id, first, "a", MOVE, "r")
    assert (again.status, again.first_version) == ("applied", 6)
    with pytest.raises(Conflict):
        await commands.submit(game_id, first, "a", {"type": "Move", "steps": 2}, "r")
    # And the command queued before is decided, its outcome under its bare id
    await harness.run_jobs()
    queued = await commands.outcome(game_id, "q", seat=first)
    assert (queued.status, queued.first_version) == ("applied", 8)
    # And the other seat may now use an id the first seat used under the old keys
    reused = await play(harness, game_id, second, "a")
    assert (reused.status, reused.first_version) == ("applied", 9)
    # And the whole history reads: old bare tags and new keys side by side
    verification = await harness.skald.history.verify(game_id)
    assert verification.ok, [c for c in verification.checks if c.status == "failed"]
    frame = await harness.skald.history.replay(game_id, OPERATOR)
    assert [(move.seat, move.command_id, move.first_version) for move in frame.moves] == [
        (first, "a", 6),
        (second, "b", 7),
        (first, "q", 8),
        (second, "a", 9),
    ]
    decoded = await harness.skald.history.history(game_id)
    assert audit_command(decoded, first, "a", OPERATOR).events[0].version == 6
    assert audit_command(decoded, second, "a", OPERATOR).events[0].version == 9
