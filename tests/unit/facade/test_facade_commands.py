"""Submitting commands through the facade: validation, idempotency, refusals, waiting."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import fakeredis
import pytest

from service.core.ports.records import NO_INBOX_ID
from service.shared.errors import Conflict, Forbidden, InvalidInput, NotFound, RateLimited
from tests.fakes.race import RaceGame, race_config
from tests.unit.facade.harness import Harness, make_harness

pytestmark = pytest.mark.anyio


@dataclass
class Table:
    harness: Harness
    game_id: str
    to_act: int  # the seat whose turn it is

    @property
    def other(self) -> int:
        return 1 - self.to_act

    async def submit(self, seat: int, command_id: str, command: dict[str, Any]) -> Any:
        return await self.harness.skald.commands.submit(
            self.game_id, seat, command_id, command, "req"
        )

    async def stream(self) -> tuple[int, int]:
        """(events stored, commands in the inbox): what must not change on bad input."""
        store = self.harness.skald.store
        events = len(await store.read(self.game_id))
        return events, len(await store.inbox(self.game_id, NO_INBOX_ID, 1000))


async def new_table(harness: Harness) -> Table:
    game_id = (await harness.skald.commands.create_game("race", race_config())).game_id
    turn = await harness.skald.reads.turn(game_id, None)
    return Table(harness, game_id, turn.to_act[0])


@pytest.fixture
async def table(race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis) -> AsyncIterator[Table]:
    harness = make_harness(fake_redis, rate_per_seat=5, max_wait_s=2.0)
    yield await new_table(harness)
    await harness.skald.close()


async def test_a_command_is_queued_then_applied_by_a_drain(table: Table) -> None:
    queued = await table.submit(table.to_act, "c1", {"type": "Move", "steps": 2})
    ran = await table.harness.run_jobs()
    applied = await table.harness.skald.commands.outcome(table.game_id, "c1")

    assert (queued.status, queued.seat) == ("queued", table.to_act)
    assert ran == 1
    assert (applied.status, applied.first_version, applied.last_version) == ("applied", 6, 6)


async def test_the_same_command_id_three_times_applies_once(table: Table) -> None:
    command = {"type": "Move", "steps": 1}

    replies = [await table.submit(table.to_act, "c1", command) for _ in range(3)]
    await table.harness.run_jobs()
    after = [await table.submit(table.to_act, "c1", command) for _ in range(3)]

    assert {r.status for r in replies} == {"queued"}
    assert table.harness.scheduler.scheduled == []  # the runner ran, none is left
    assert len({(r.status, r.first_version, r.last_version) for r in after}) == 1
    assert after[0].status == "applied"
    assert await table.stream() == (6, 1)


@pytest.mark.parametrize(
    "command",
    [
        {"type": "Move", "steps": 1, "extra": True},  # unknown field
        {"type": "Move", "steps": "one"},  # wrong type
        {"type": "Move"},  # missing field
        {"type": "Teleport"},  # unknown command
        {"steps": 1},  # no tag
        ["Move", 1],  # not an object
    ],
)
async def test_a_malformed_command_is_refused_and_the_stream_is_unchanged(
    table: Table, command: Any
) -> None:
    before = await table.stream()

    with pytest.raises(InvalidInput) as raised:
        await table.submit(table.to_act, "c1", command)

    assert raised.value.code == "command.bad_payload"
    assert raised.value.message.startswith(("bad command:", "a command is"))
    assert await table.stream() == before
    assert table.harness.scheduler.scheduled == []


async def test_commands_for_unknown_games_or_seats_change_nothing(table: Table) -> None:
    before = await table.stream()

    with pytest.raises(NotFound):
        await table.harness.skald.commands.submit("nope", 0, "c1", {"type": "Boost"}, "r")
    with pytest.raises(Forbidden):
        await table.submit(2, "c1", {"type": "Boost"})
    with pytest.raises(InvalidInput):
        await table.submit(table.to_act, "", {"type": "Boost"})

    assert await table.stream() == before


async def test_out_of_turn_is_refused_by_the_rules_and_the_stream_is_unchanged(
    table: Table,
) -> None:
    events_before, _ = await table.stream()

    await table.submit(table.other, "c1", {"type": "Move", "steps": 1})
    await table.harness.run_jobs()
    refused = await table.harness.skald.commands.outcome(table.game_id, "c1")

    assert (refused.status, refused.code, refused.details) == (
        "refused",
        "turn.not_yours",
        {"seat": table.other, "to_act": [table.to_act]},
    )
    assert refused.message
    assert (await table.stream())[0] == events_before


async def test_command_ids_are_per_seat_and_each_seat_gets_its_own_command(table: Table) -> None:
    commands = table.harness.skald.commands
    # Given the seat to act used the id "c1"
    await table.submit(table.to_act, "c1", {"type": "Move", "steps": 1})

    # When the other seat uses the same id: a normal queued reply, its own command
    other = await table.submit(table.other, "c1", {"type": "Move", "steps": 2})
    await table.harness.run_jobs()

    # Then both were applied in turn, each read back by its own seat only
    assert (other.status, other.seat) == ("queued", table.other)
    mine = await commands.outcome(table.game_id, "c1", seat=table.to_act)
    theirs = await commands.outcome(table.game_id, "c1", seat=table.other)
    assert (mine.status, mine.first_version) == ("applied", 6)
    assert (theirs.status, theirs.first_version) == ("applied", 7)
    assert await table.stream() == (7, 2)
    # And without a seat, the id names no one command
    with pytest.raises(Conflict) as ambiguous:
        await commands.outcome(table.game_id, "c1")
    assert ambiguous.value.code == "command.ambiguous"


async def test_a_seat_reusing_its_own_id_for_another_command_is_refused(table: Table) -> None:
    await table.submit(table.to_act, "c1", {"type": "Move", "steps": 1})

    with pytest.raises(Conflict) as other_command:
        await table.submit(table.to_act, "c1", {"type": "Move", "steps": 2})

    assert other_command.value.code == "command.id_reused"
    assert await table.stream() == (5, 1)


async def test_another_seats_command_is_not_found(table: Table) -> None:
    await table.submit(table.to_act, "c1", {"type": "Move", "steps": 1})

    with pytest.raises(NotFound) as theirs:
        await table.harness.skald.commands.outcome(table.game_id, "c1", seat=table.other)
    with pytest.raises(NotFound) as nobodys:
        await table.harness.skald.commands.outcome(table.game_id, "c9", seat=table.other)

    # The same answer as for an id nobody used
    assert theirs.value.code == nobodys.value.code == "command.not_found"


async def test_a_seat_over_its_rate_is_told_when_to_retry(table: Table) -> None:
    for n in range(5):
        await table.submit(table.to_act, f"c{n}", {"type": "Boost"})

    with pytest.raises(RateLimited) as raised:
        await table.submit(table.to_act, "c5", {"type": "Boost"})
    other_seat = await table.submit(table.other, "c6", {"type": "Boost"})

    assert raised.value.code == "seat.rate_limited"
    assert 0 < raised.value.retry_after <= 1.0
    assert other_seat.status == "queued"
    assert (await table.stream())[1] == 6


async def test_waiting_returns_the_outcome_as_soon_as_a_worker_decides(table: Table) -> None:
    await table.submit(table.to_act, "c1", {"type": "Move", "steps": 3})
    waiter = asyncio.create_task(
        table.harness.skald.commands.wait_outcome(table.game_id, "c1", 2.0)
    )
    while table.harness.skald.notifier.listeners(table.game_id) == 0:
        await asyncio.sleep(0)  # let the waiter subscribe

    await table.harness.run_jobs()
    outcome = await asyncio.wait_for(waiter, 1.0)

    assert outcome.status == "applied"


async def test_waiting_gives_up_with_queued_after_the_bound(table: Table) -> None:
    await table.submit(table.to_act, "c1", {"type": "Move", "steps": 3})

    outcome = await table.harness.skald.commands.wait_outcome(table.game_id, "c1", 0.05)

    assert outcome.status == "queued"
    assert table.harness.skald.notifier.listeners(table.game_id) == 0


async def test_outcomes_of_unknown_commands_or_other_seats_are_not_found(table: Table) -> None:
    await table.submit(table.to_act, "c1", {"type": "Boost"})

    with pytest.raises(NotFound):
        await table.harness.skald.commands.outcome(table.game_id, "c2")
    with pytest.raises(NotFound):
        await table.harness.skald.commands.outcome(table.game_id, "c1", seat=table.other)
    with pytest.raises(NotFound):
        await table.harness.skald.commands.wait_outcome(table.game_id, "c2", 0.01)
