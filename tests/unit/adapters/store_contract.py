"""The storage contract: one suite, run against every EventStore adapter.

Subclasses provide a `store` fixture (in memory, fakeredis, real Redis). Everything here is
what the command path relies on: atomic, version-conditional, fenced appends; idempotent
submission; commands decided at most once. The drain runners' side of the store (ready set,
runner slots) has its own suite in runner_contract.py.
"""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from service.core.pipeline.chain import genesis, link
from service.core.ports.event_store import (
    AlreadyDecided,
    CommitFailed,
    EventStore,
    GameExists,
    GameMissing,
    LeaseLost,
    VersionConflict,
)
from service.core.ports.records import (
    NO_INBOX_ID,
    Accepted,
    Batch,
    CommandRecord,
    Committed,
    Decided,
    Duplicate,
    GameMeta,
    NewEvent,
    ReceivedCommand,
    RoundRequest,
    Throttled,
)
from tests.fakes.rounds import take_lease
from tests.unit.adapters.notifications import Notifications

GAME = "g1"
META = GameMeta("race", "1", 2, "2024-01-01T00:00:00+00:00")
SEED = bytes(range(32))
LEASE_MS = 10_000


def chained(game_id: str, payloads: list[bytes], after: bytes | None = None) -> list[NewEvent]:
    """Events with correct chain values, continuing from `after` (h_0 by default)."""
    value = genesis(game_id) if after is None else after
    events = []
    for data in payloads:
        value = link(value, data)
        events.append(NewEvent(data, value))
    return events


def command(
    command_id: str, seat: int = 0, body: bytes = b'{"type":"Move","steps":1}'
) -> ReceivedCommand:
    return ReceivedCommand(seat, command_id, f"req-{command_id}", body)


async def create_game(store: EventStore, game_id: str = GAME, events: int = 3) -> list[NewEvent]:
    opening = chained(game_id, [f"setup-{n}".encode() for n in range(events)])
    await store.create(game_id, META, SEED, opening, False)
    return opening


async def submit(store: EventStore, received: ReceivedCommand, rate: int = 0) -> Accepted:
    result = await store.submit(GAME, received, f"job-{received.command_id}", rate, 1000)
    assert isinstance(result, Accepted), result
    return result


class EventStoreContract:
    """Behaviour every EventStore adapter must show."""

    @pytest.fixture
    def store(self) -> EventStore:
        raise NotImplementedError

    @pytest.fixture
    def notifications(self) -> Notifications:
        """What the store's finished turns announce, heard the adapter's way."""
        raise NotImplementedError

    # --- creating and reading -------------------------------------------------------------

    async def test_a_created_game_reads_back_as_stored(self, store: EventStore) -> None:
        opening = await create_game(store)

        head = await store.head(GAME)
        events = await store.read(GAME)

        assert head is not None
        assert (head.version, head.hash, head.cursor, head.finished) == (
            3,
            opening[-1].hash,
            NO_INBOX_ID,
            False,
        )
        assert [e.version for e in events] == [1, 2, 3]
        assert [(e.data, e.hash) for e in events] == [(e.data, e.hash) for e in opening]
        assert await store.meta(GAME) == META
        assert await store.seed(GAME) == SEED

    async def test_reading_after_a_version_and_with_a_limit(self, store: EventStore) -> None:
        await create_game(store, events=5)

        middle = await store.read(GAME, after=1, limit=2)
        tail = await store.read(GAME, after=4)
        past_the_end = await store.read(GAME, after=5)

        assert [e.version for e in middle] == [2, 3]
        assert [e.version for e in tail] == [5]
        assert past_the_end == []

    async def test_creating_an_existing_game_fails_and_changes_nothing(
        self, store: EventStore
    ) -> None:
        opening = await create_game(store)

        with pytest.raises(GameExists):
            await store.create(GAME, META, b"\x00" * 32, chained(GAME, [b"other"]), True)

        assert [e.data for e in await store.read(GAME)] == [e.data for e in opening]
        assert await store.seed(GAME) == SEED

    async def test_an_unknown_game_has_nothing(self, store: EventStore) -> None:
        assert await store.head("nope") is None
        assert await store.meta("nope") is None
        assert await store.read("nope") == []
        assert await store.command("nope", 0, "c1") is None
        with pytest.raises(GameMissing):
            await store.submit("nope", command("c1"), "job", 0, 1000)

    # --- the inbox ---------------------------------------------------------------------

    async def test_submitted_commands_queue_in_order(self, store: EventStore) -> None:
        await create_game(store)

        first = await submit(store, command("c1", seat=0))
        second = await submit(store, command("c2", seat=1))

        inbox = await store.inbox(GAME, NO_INBOX_ID, 10)
        assert [(c.command_id, c.seat, c.request_id) for c in inbox] == [
            ("c1", 0, "req-c1"),
            ("c2", 1, "req-c2"),
        ]
        assert inbox[0].inbox_id == first.inbox_id
        assert await store.command(GAME, 1, "c2") == CommandRecord("queued", 1, second.inbox_id)

    async def test_the_same_command_id_is_queued_once(self, store: EventStore) -> None:
        await create_game(store)
        accepted = await submit(store, command("c1"))

        again = await store.submit(GAME, command("c1", body=b"{}"), "job-x", 0, 1000)

        assert again == Duplicate(
            ReceivedCommand(0, "c1", "req-c1", command("c1").body, accepted.inbox_id),
            CommandRecord("queued", 0, accepted.inbox_id),
        )
        assert len(await store.inbox(GAME, NO_INBOX_ID, 10)) == 1

    async def test_a_seat_over_its_rate_is_throttled_and_nothing_is_queued(
        self, store: EventStore
    ) -> None:
        await create_game(store)
        await submit(store, command("c1"), rate=2)
        await submit(store, command("c2"), rate=2)

        third = await store.submit(GAME, command("c3"), "job", 2, 1000)
        other_seat = await store.submit(GAME, command("c4", seat=1), "job", 2, 1000)

        assert isinstance(third, Throttled)
        assert 0 < third.retry_after_ms <= 1000
        assert isinstance(other_seat, Accepted)
        assert await store.command(GAME, 0, "c3") is None
        assert [c.command_id for c in await store.inbox(GAME, NO_INBOX_ID, 10)] == [
            "c1",
            "c2",
            "c4",
        ]

    async def test_submits_made_at_once_each_get_their_own_answer(self, store: EventStore) -> None:
        # At a busy API the submits of many seats arrive together (the Redis adapter sends
        # them in one round trip): each is answered as if it had come alone.
        await create_game(store)
        await create_game(store, "g2")
        await submit(store, command("c1"))

        results = await asyncio.gather(
            store.submit(GAME, command("c2", seat=1), "job-a", 0, 1000),
            store.submit("g2", command("c1"), "job-b", 0, 1000),
            store.submit(GAME, command("c1", body=b"{}"), "job-c", 0, 1000),
            store.submit("nope", command("c9"), "job-d", 0, 1000),
            store.submit("g2", command("c5", seat=1), "job-e", 1, 1000),
            store.submit("g2", command("c6", seat=1), "job-f", 1, 1000),
            store.submit(GAME, command("c4", seat=1), "job-g", 0, 1000),
            return_exceptions=True,
        )

        accepted, other_game, duplicate, missing, fifth, sixth, last = results
        assert isinstance(accepted, Accepted) and isinstance(other_game, Accepted)
        assert isinstance(duplicate, Duplicate) and duplicate.record.status == "queued"
        assert isinstance(missing, GameMissing)
        assert isinstance(last, Accepted)
        # Submits made at once have no order between them (one Redis happens to keep the
        # calls' order, a cluster sends them on several connections): of the seat's two
        # within one rate window, one is accepted and the other throttled.
        rated = {"c5": fifth, "c6": sixth}
        within_rate = [c for c, result in rated.items() if isinstance(result, Accepted)]
        assert len(within_rate) == 1
        assert [type(result) for result in rated.values()].count(Throttled) == 1
        in_game = [c.command_id for c in await store.inbox(GAME, NO_INBOX_ID, 10)]
        assert in_game[0] == "c1" and sorted(in_game[1:]) == ["c2", "c4"]
        assert [c.command_id for c in await store.inbox("g2", NO_INBOX_ID, 10)] == [
            "c1",
            *within_rate,
        ]

    async def test_inbox_reads_after_a_cursor(self, store: EventStore) -> None:
        await create_game(store)
        first = await submit(store, command("c1"))
        await submit(store, command("c2"))

        rest = await store.inbox(GAME, first.inbox_id, 10)

        assert [c.command_id for c in rest] == ["c2"]
        assert await store.received(GAME, first.inbox_id) == ReceivedCommand(
            0, "c1", "req-c1", command("c1").body, first.inbox_id
        )
        assert rest[0].received_ms >= (await store.inbox(GAME, NO_INBOX_ID, 1))[0].received_ms

    # --- committing a batch ---------------------------------------------------------------

    async def _batch(
        self, store: EventStore, lease: int, expected: int = 3, decide: str = "c1"
    ) -> Batch:
        head = await store.head(GAME)
        assert head is not None
        events = chained(GAME, [b"moved", b"scored"], after=head.hash)
        events = [NewEvent(e.data, e.hash, decide) for e in events]
        received = (await store.inbox(GAME, head.cursor, 1))[0]
        record = CommandRecord("applied", received.seat, received.inbox_id, 4, 5)
        return Batch(
            lease=lease,
            expected_version=expected,
            cursor=received.inbox_id,
            head_hash=events[-1].hash,
            events=events,
            decided=[Decided(decide, record)],
            lease_ttl_ms=LEASE_MS,
        )

    async def test_a_commit_appends_records_outcomes_and_moves_the_cursor(
        self, store: EventStore
    ) -> None:
        await create_game(store)
        accepted = await submit(store, command("c1"))
        await submit(store, command("c2"))
        lease = await take_lease(store, GAME, LEASE_MS)
        assert lease is not None
        batch = await self._batch(store, lease)

        head = await store.commit(GAME, batch)

        assert (head.version, head.hash, head.cursor) == (5, batch.head_hash, accepted.inbox_id)
        assert await store.head(GAME) == head
        appended = await store.read(GAME, after=3)
        assert [(e.version, e.data, e.command_id) for e in appended] == [
            (4, b"moved", "c1"),
            (5, b"scored", "c1"),
        ]
        assert await store.command(GAME, 0, "c1") == batch.decided[0].record
        assert [c.command_id for c in await store.inbox(GAME, head.cursor, 10)] == ["c2"]

    async def test_a_commit_at_a_stale_version_conflicts_and_changes_nothing(
        self, store: EventStore
    ) -> None:
        await create_game(store)
        await submit(store, command("c1"))
        lease = await take_lease(store, GAME, LEASE_MS)
        assert lease is not None
        before = await store.head(GAME)

        with pytest.raises(VersionConflict) as raised:
            await store.commit(GAME, await self._batch(store, lease, expected=2))

        assert raised.value.actual == 3
        assert await store.head(GAME) == before
        assert len(await store.read(GAME)) == 3
        assert (await store.command(GAME, 0, "c1")) is not None
        assert (await store.command(GAME, 0, "c1")).status == "queued"  # type: ignore[union-attr]

    async def test_a_commit_without_the_lease_is_refused(self, store: EventStore) -> None:
        await create_game(store)
        await submit(store, command("c1"))
        stale = await take_lease(store, GAME, LEASE_MS)
        assert stale is not None
        await store.release_lease(GAME, stale)
        current = await take_lease(store, GAME, LEASE_MS)
        assert current is not None and current > stale

        with pytest.raises(LeaseLost):
            await store.commit(GAME, await self._batch(store, stale))

        assert len(await store.read(GAME)) == 3

    async def test_a_command_is_decided_at_most_once(self, store: EventStore) -> None:
        await create_game(store)
        await submit(store, command("c1"))
        lease = await take_lease(store, GAME, LEASE_MS)
        assert lease is not None
        await store.commit(GAME, await self._batch(store, lease))
        head = await store.head(GAME)
        assert head is not None
        replay = Batch(
            lease=lease,
            expected_version=5,
            cursor=head.cursor,
            head_hash=link(head.hash, b"again"),
            events=[NewEvent(b"again", link(head.hash, b"again"), "c1")],
            decided=[Decided("c1", CommandRecord("applied", 0, head.cursor, 6, 6))],
        )

        with pytest.raises(AlreadyDecided):
            await store.commit(GAME, replay)

        assert len(await store.read(GAME)) == 5
        assert await store.head(GAME) == head

    async def test_projections_are_stored_with_their_version(self, store: EventStore) -> None:
        def view(version: int, text: str) -> bytes:
            return msgspec.json.encode({"game_id": GAME, "version": version, "view": text})

        await store.create(GAME, META, SEED, chained(GAME, [b"a"]), False, {"json:p": view(1, "a")})
        await submit(store, command("c1"))
        lease = await take_lease(store, GAME, LEASE_MS)
        assert lease is not None
        opening = await store.view(GAME, "json:p")
        batch = await self._batch(store, lease, expected=1)

        await store.commit(
            GAME,
            Batch(
                batch.lease,
                batch.expected_version,
                batch.cursor,
                batch.head_hash,
                batch.events,
                batch.decided,
                views={"json:p": view(3, "b"), "json:0": view(3, "mine")},
            ),
        )

        assert opening == (1, view(1, "a"))
        assert await store.view(GAME, "json:p") == (3, view(3, "b"))
        assert await store.view(GAME, "json:0") == (3, view(3, "mine"))
        assert await store.view(GAME, "json:9") is None
        assert await store.view("nope", "json:p") is None

    async def test_a_finishing_commit_marks_the_game_over(self, store: EventStore) -> None:
        await create_game(store)
        await submit(store, command("c1"))
        lease = await take_lease(store, GAME, LEASE_MS)
        assert lease is not None
        batch = await self._batch(store, lease)

        head = await store.commit(
            GAME,
            Batch(
                batch.lease,
                batch.expected_version,
                batch.cursor,
                batch.head_hash,
                batch.events,
                batch.decided,
                finished=True,
            ),
        )

        assert head.finished
        stored = await store.head(GAME)
        assert stored is not None and stored.finished

    # --- leases ---------------------------------------------------------------------------

    async def test_one_lease_holder_at_a_time(self, store: EventStore) -> None:
        await create_game(store)

        first = await take_lease(store, GAME, LEASE_MS)
        second = await take_lease(store, GAME, LEASE_MS)
        assert first is not None
        await store.release_lease(GAME, first + 1000)  # a wrong token releases nothing
        still_held = await store.lease_held(GAME)
        await store.release_lease(GAME, first)
        third = await take_lease(store, GAME, LEASE_MS)

        assert second is None
        assert still_held
        assert third is not None and third > first

    # --- opening a drain round -------------------------------------------------------------

    async def test_opening_a_turn_takes_the_lease_with_the_head_and_waiting_commands(
        self, store: EventStore
    ) -> None:
        opening = await create_game(store)
        for command_id in ("c1", "c2", "c3"):
            await submit(store, command(command_id))

        [turn] = await store.open_round([RoundRequest(GAME)], LEASE_MS, 2)

        assert turn is not None
        assert await store.lease_held(GAME)
        assert (turn.head.version, turn.head.hash, turn.head.cursor) == (
            3,
            opening[-1].hash,
            NO_INBOX_ID,
        )
        assert not turn.head.finished
        assert turn.commands == await store.inbox(GAME, NO_INBOX_ID, 2)
        assert [c.command_id for c in turn.commands] == ["c1", "c2"]
        assert (turn.events, turn.meta, turn.seed) == ([], None, None)  # none asked for

    async def test_a_turn_reads_past_the_cursor_and_its_lease_fences_commits(
        self, store: EventStore
    ) -> None:
        await create_game(store)
        accepted = await submit(store, command("c1"))
        await submit(store, command("c2"))
        [first] = await store.open_round([RoundRequest(GAME)], LEASE_MS, 1)
        assert first is not None
        await store.commit(GAME, await self._batch(store, first.lease))
        await store.release_lease(GAME, first.lease)

        [second] = await store.open_round([RoundRequest(GAME)], LEASE_MS, 10)

        assert second is not None and second.lease > first.lease
        assert (second.head.version, second.head.cursor) == (5, accepted.inbox_id)
        assert [c.command_id for c in second.commands] == ["c2"]
        with pytest.raises(LeaseLost):
            await store.commit(GAME, await self._batch(store, first.lease, expected=5, decide="c2"))

    async def test_a_turn_brings_the_events_after_the_version_the_worker_knows(
        self, store: EventStore
    ) -> None:
        opening = await create_game(store, events=4)

        [behind] = await store.open_round([RoundRequest(GAME, known_version=2)], LEASE_MS, 10)
        assert behind is not None
        await store.release_lease(GAME, behind.lease)
        [current] = await store.open_round([RoundRequest(GAME, known_version=4)], LEASE_MS, 10)

        assert [(e.version, e.data) for e in behind.events] == [
            (3, opening[2].data),
            (4, opening[3].data),
        ]
        assert (behind.meta, behind.seed) == (None, None)
        assert current is not None and current.events == []

    async def test_a_cold_turn_brings_every_event_the_meta_and_the_seed(
        self, store: EventStore
    ) -> None:
        opening = await create_game(store)

        [turn] = await store.open_round([RoundRequest(GAME, known_version=0)], LEASE_MS, 10)

        assert turn is not None
        assert [e.hash for e in turn.events] == [e.hash for e in opening]
        assert turn.events == await store.read(GAME)
        assert (turn.meta, turn.seed) == (META, SEED)

    async def test_no_turn_while_another_holds_the_lease(self, store: EventStore) -> None:
        await create_game(store)
        await submit(store, command("c1"))
        holder = await take_lease(store, GAME, LEASE_MS)
        assert holder is not None

        [turn] = await store.open_round([RoundRequest(GAME)], LEASE_MS, 10)

        assert turn is None
        assert [c.command_id for c in await store.inbox(GAME, NO_INBOX_ID, 10)] == ["c1"]

    async def test_no_turn_on_an_unknown_game_and_no_lease_taken(self, store: EventStore) -> None:
        [turn] = await store.open_round([RoundRequest("nope")], LEASE_MS, 10)

        assert turn is None
        assert not await store.lease_held("nope")

    async def test_a_round_opens_each_of_its_games_on_its_own(self, store: EventStore) -> None:
        for game_id in ("g1", "g2", "g3"):
            await create_game(store, game_id)
        held = await take_lease(store, "g2", LEASE_MS)
        assert held is not None

        turns = await store.open_round(
            [RoundRequest("g1"), RoundRequest("g2"), RoundRequest("nope"), RoundRequest("g3")],
            LEASE_MS,
            10,
        )

        assert [turn is not None for turn in turns] == [True, False, False, True]
        assert await store.lease_held("g1") and await store.lease_held("g3")

    # --- committing a round: commit, give the lease back, notify --------------------------

    async def test_committing_a_turn_gives_the_lease_back_and_puts_back_a_waiting_game(
        self, store: EventStore
    ) -> None:
        await create_game(store)
        await submit(store, command("c1"))
        await submit(store, command("c2"))
        [turn] = await store.open_round([RoundRequest(GAME)], LEASE_MS, 1)
        assert turn is not None
        batch = await self._batch(store, turn.lease)

        [committed] = await store.commit_round([(GAME, batch)])

        assert isinstance(committed, Committed)
        assert committed.put_back  # c2 still waits
        assert committed.head == await store.head(GAME)
        assert committed.head.version == 5
        assert not await store.lease_held(GAME)
        assert await store.command(GAME, 0, "c1") == batch.decided[0].record

    async def test_committing_a_turn_with_nothing_left_does_not_put_the_game_back(
        self, store: EventStore
    ) -> None:
        await create_game(store)
        await submit(store, command("c1"))
        [turn] = await store.open_round([RoundRequest(GAME)], LEASE_MS, 10)
        assert turn is not None

        [committed] = await store.commit_round([(GAME, await self._batch(store, turn.lease))])

        assert isinstance(committed, Committed) and not committed.put_back
        assert not await store.lease_held(GAME)

    async def test_a_refused_turn_writes_nothing_keeps_its_lease_and_spares_the_others(
        self, store: EventStore
    ) -> None:
        for game_id in ("g1", "g2"):
            await create_game(store, game_id)
            await store.submit(game_id, command("c1"), "job", 0, 1000)
        turns = await store.open_round([RoundRequest("g1"), RoundRequest("g2")], LEASE_MS, 10)
        assert turns[0] is not None and turns[1] is not None
        before = await store.head("g1")
        stale = await self._batch(store, turns[0].lease, expected=2)
        good = Batch(
            lease=turns[1].lease,
            expected_version=3,
            cursor=turns[1].commands[0].inbox_id,
            head_hash=turns[1].head.hash,
            events=[],
            decided=[Decided("c1", CommandRecord("refused", 0, turns[1].commands[0].inbox_id))],
        )

        outcomes = await store.commit_round([("g1", stale), ("g2", good)])

        assert isinstance(outcomes[0], VersionConflict)
        assert await store.head("g1") == before
        assert await store.lease_held("g1")
        assert isinstance(outcomes[1], Committed)
        assert (await store.command("g2", 0, "c1")) == good.decided[0].record
        assert not await store.lease_held("g2")

    async def test_a_turn_whose_outcome_cannot_be_stored_fails_alone(
        self, store: EventStore
    ) -> None:
        # An int past 64 bits in a refusal's details: MessagePack cannot hold it.
        for game_id in ("g1", "g2", "g3"):
            await create_game(store, game_id)
            await store.submit(game_id, command("c1"), "job", 0, 1000)
        requests = [RoundRequest(game_id) for game_id in ("g1", "g2", "g3")]
        turns = await store.open_round(requests, LEASE_MS, 10)
        batches = []
        for game_id, turn in zip(("g1", "g2", "g3"), turns, strict=True):
            assert turn is not None
            inbox_id = turn.commands[0].inbox_id
            details = {"steps": 2**64} if game_id == "g2" else {}
            record = CommandRecord("refused", 0, inbox_id, code="x", details=details)
            batch = Batch(turn.lease, 3, inbox_id, turn.head.hash, [], [Decided("c1", record)])
            batches.append((game_id, batch))

        outcomes = await store.commit_round(batches)

        assert isinstance(outcomes[1], CommitFailed)
        assert (await store.command("g2", 0, "c1")).status == "queued"  # type: ignore[union-attr]
        assert await store.lease_held("g2")
        with pytest.raises(CommitFailed):
            await store.commit("g2", batches[1][1])
        for n in (0, 2):
            assert isinstance(outcomes[n], Committed)
            assert await store.command(batches[n][0], 0, "c1") == batches[n][1].decided[0].record

    async def test_a_committed_turn_announces_its_new_version_and_an_idle_one_does_not(
        self, store: EventStore, notifications: Notifications
    ) -> None:
        for game_id in ("g1", "g2"):
            await create_game(store, game_id)
        await submit(store, command("c1"))
        turns = await store.open_round([RoundRequest("g1"), RoundRequest("g2")], LEASE_MS, 10)
        assert turns[0] is not None and turns[1] is not None
        idle = Batch(turns[1].lease, 3, turns[1].head.cursor, turns[1].head.hash, [], [])

        await store.commit_round([("g1", await self._batch(store, turns[0].lease)), ("g2", idle)])

        assert await notifications.heard() == [("g1", 5)]
