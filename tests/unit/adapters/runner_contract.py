"""The storage contract of the drain runners' side: the ready set and the runner slots.

It extends EventStoreContract: every adapter's test class runs this one, so both. Slot
expiry needs a clock the test controls, so it is checked on the in-memory store alone
(tests/unit/core/test_runner.py); here every slot stays alive.
"""

from __future__ import annotations

import asyncio

from service.core.ports.event_store import EventStore
from service.core.ports.records import Committed, RoundRequest, RunnerLimits
from tests.fakes.rounds import take_lease
from tests.unit.adapters.store_contract import (
    GAME,
    LEASE_MS,
    EventStoreContract,
    command,
    create_game,
    submit,
)

MAX_RUNNERS = RunnerLimits().max_runners  # the limit every contract fixture's store uses


async def take_all(store: EventStore, runner: str = "runner-1") -> list[str]:
    """Every ready game, in the order runners get them (one at a time)."""
    taken = []
    while game_ids := await store.take_ready(runner):
        taken += game_ids
    return taken


async def fill_runner_slots(store: EventStore) -> None:
    """Create the game and submit one command per runner slot, so every slot is taken."""
    await create_game(store)
    for n in range(MAX_RUNNERS):
        await submit(store, command(f"c{n}"))


class RunnerContract(EventStoreContract):
    """Behaviour every EventStore adapter must show, drain runners' side included."""

    async def test_a_submitted_game_is_ready_once_however_many_commands_wait(
        self, store: EventStore
    ) -> None:
        await create_game(store)

        await submit(store, command("c1"))
        await submit(store, command("c2"))

        assert await take_all(store) == [GAME]

    async def test_games_are_taken_in_the_order_they_became_ready(self, store: EventStore) -> None:
        for game_id in ("g1", "g2", "g3"):
            await create_game(store, game_id)
        for game_id in ("g2", "g3", "g1"):
            await store.submit(game_id, command(f"c-{game_id}"), "job", 0, 1000)

        assert await take_all(store) == ["g2", "g3", "g1"]

    async def test_a_round_takes_up_to_its_count_of_games_oldest_first(
        self, store: EventStore
    ) -> None:
        for game_id in ("g1", "g2", "g3"):
            await create_game(store, game_id)
        for game_id in ("g3", "g1", "g2"):
            await store.submit(game_id, command(f"c-{game_id}"), "job", 0, 1000)

        first = await store.take_ready("runner-1", 2)
        second = await store.take_ready("runner-1", 2)
        third = await store.take_ready("runner-1", 2)

        assert (first, second, third) == (["g3", "g1"], ["g2"], [])

    async def test_a_waiting_runner_gets_a_game_made_ready_meanwhile(
        self, store: EventStore
    ) -> None:
        await create_game(store)
        waiting = asyncio.create_task(store.take_ready("runner-1", 4, wait_s=5.0))
        await asyncio.sleep(0.05)  # the runner is waiting on the store by now

        await submit(store, command("c1"))

        async with asyncio.timeout(5):
            assert await waiting == [GAME]

    async def test_a_waiting_runner_gets_nothing_when_no_game_comes(
        self, store: EventStore
    ) -> None:
        await create_game(store)

        assert await store.take_ready("runner-1", 4, wait_s=0.05) == []

    async def test_no_more_than_max_runners_submits_start_a_runner(self, store: EventStore) -> None:
        await create_game(store)

        started = [(await submit(store, command(f"c{n}"))).start_runner for n in range(6)]

        assert started == [True] * MAX_RUNNERS + [False] * (6 - MAX_RUNNERS)

    async def test_a_commit_that_takes_hands_over_each_ready_game_once(
        self, store: EventStore
    ) -> None:
        await create_game(store)
        await submit(store, command("c1"))
        await submit(store, command("c2"))
        await create_game(store, "g2")
        await store.submit("g2", command("c1"), "job-g2", 0, 1000)
        assert await store.take_ready("runner-1", 1) == [GAME]
        [turn] = await store.open_round([RoundRequest(GAME)], LEASE_MS, 1)
        assert turn is not None

        outcomes, taken = await store.commit_round_then_take(
            [(GAME, await self._batch(store, turn.lease))], "runner-1", 4, 0.0
        )

        [committed] = outcomes
        assert isinstance(committed, Committed) and committed.put_back  # c2 still waits
        assert await store.command(GAME, 0, "c1") is not None
        assert "g2" in taken
        # The game the commit put back is taken with them, or (when Redis had to reload the
        # commit script first) by the next take: either way once.
        assert sorted(taken + await take_all(store)) == [GAME, "g2"]

    async def test_a_commit_that_waits_is_written_first_and_wakes_for_the_next_game(
        self, store: EventStore
    ) -> None:
        await create_game(store)
        await submit(store, command("c1"))
        assert await store.take_ready("runner-1", 1) == [GAME]
        [turn] = await store.open_round([RoundRequest(GAME)], LEASE_MS, 10)
        assert turn is not None
        batch = await self._batch(store, turn.lease)
        waiting = asyncio.create_task(
            store.commit_round_then_take([(GAME, batch)], "runner-1", 4, 5.0)
        )
        await asyncio.sleep(0.05)  # the runner is waiting on the store by now

        # While it waits, its commit is already there, and a new command wakes it
        assert await store.command(GAME, 0, "c1") == batch.decided[0].record
        assert not waiting.done()
        await submit(store, command("c2"))

        async with asyncio.timeout(5):
            outcomes, taken = await waiting
        assert isinstance(outcomes[0], Committed) and not outcomes[0].put_back
        assert taken == [GAME]

    async def test_a_commit_that_waits_for_nothing_takes_nothing(self, store: EventStore) -> None:
        await create_game(store)
        await submit(store, command("c1"))
        assert await store.take_ready("runner-1", 1) == [GAME]
        [turn] = await store.open_round([RoundRequest(GAME)], LEASE_MS, 10)
        assert turn is not None

        outcomes, taken = await store.commit_round_then_take(
            [(GAME, await self._batch(store, turn.lease))], "runner-1", 4, 0.05
        )

        assert isinstance(outcomes[0], Committed)
        assert taken == []

    async def test_a_runner_ending_with_nothing_ready_frees_its_slot(
        self, store: EventStore
    ) -> None:
        await fill_runner_slots(store)
        await take_all(store)

        handed_over = await store.end_runner("job-c0", "job-next")
        later = await submit(store, command("late"))

        assert not handed_over
        assert later.start_runner  # the freed slot goes to this submitter's runner

    async def test_a_runner_out_of_time_keeps_its_slot_going_for_its_successor(
        self, store: EventStore
    ) -> None:
        await fill_runner_slots(store)
        await take_all(store)

        handed_over = await store.end_runner("job-c0", "job-next", keep=True)
        later = await submit(store, command("late"))

        assert handed_over
        assert not later.start_runner  # the successor holds the slot

    async def test_a_runner_ending_with_games_ready_hands_its_slot_over(
        self, store: EventStore
    ) -> None:
        await fill_runner_slots(store)

        handed_over = await store.end_runner("job-c0", "job-next")
        later = await submit(store, command("late"))

        assert handed_over
        assert not later.start_runner  # the successor holds the slot: still at the limit
        assert await take_all(store) == [GAME]

    async def test_releasing_a_lease_puts_the_game_back_only_when_commands_wait(
        self, store: EventStore
    ) -> None:
        await create_game(store)
        await submit(store, command("c1"))
        await take_all(store)
        lease = await take_lease(store, GAME, LEASE_MS)
        assert lease is not None
        batch = await self._batch(store, lease)
        await submit(store, command("c2"))  # arrives while the batch is being decided
        await store.commit(GAME, batch)
        await take_all(store)  # a runner took the game meanwhile and skipped it: leased

        put_back = await store.release_lease(GAME, lease)
        ready_after = await take_all(store)

        assert put_back and ready_after == [GAME]

    async def test_releasing_a_lease_with_nothing_waiting_leaves_the_game_out(
        self, store: EventStore
    ) -> None:
        await create_game(store)
        await submit(store, command("c1"))
        await take_all(store)
        lease = await take_lease(store, GAME, LEASE_MS)
        assert lease is not None
        await store.commit(GAME, await self._batch(store, lease))

        put_back = await store.release_lease(GAME, lease)

        assert not put_back and await take_all(store) == []

    async def test_waking_a_game_makes_it_ready_and_claims_a_free_slot(
        self, store: EventStore
    ) -> None:
        await create_game(store)

        claimed = await store.wake(GAME, "job-swept")
        ready = await take_all(store)

        assert claimed and ready == [GAME]

    async def test_waking_claims_no_slot_when_every_runner_is_alive(
        self, store: EventStore
    ) -> None:
        await fill_runner_slots(store)

        claimed = await store.wake(GAME, "job-swept")

        assert not claimed and await take_all(store) == [GAME]
