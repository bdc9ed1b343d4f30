"""What a cluster does in separate steps that one Redis does in one: a submit that stops
between its steps leaves no command stranded (the sweeper marks the game ready again), and
with WAIT on, a command is acknowledged once its replica holds it."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest
import redis

from service import bootstrap
from service.adapters.redis_clients import event_redis
from service.adapters.store.redis_store import RedisEventStore
from service.adapters.store.replica_wait import NotReplicated, ReplicaWait
from service.adapters.store.side import PendingIndex
from service.core.pipeline.sweep import sweep
from service.core.ports.records import Accepted, Duplicate, RoundRequest
from service.shared.settings import Settings
from tests.cluster.local_cluster import LocalCluster
from tests.fakes.scheduler import RecordingScheduler
from tests.unit.adapters.store_contract import command, create_game, submit

pytestmark = [pytest.mark.anyio]


@pytest.fixture
async def store(redis_cluster: LocalCluster) -> AsyncIterator[RedisEventStore]:
    client = event_redis(redis_cluster.url, cluster=True)
    yield RedisEventStore(client, prefix=f"it-gaps-{uuid.uuid4().hex[:8]}:")
    await client.aclose()


async def test_a_submit_stopped_before_its_wake_is_found_and_marked_ready(
    store: RedisEventStore,
) -> None:
    await create_game(store, "g1")
    await create_game(store, "g2")
    accepted = await store.submit("g2", command("c1"), "job-g2", 0, 1000)  # marked as usual
    assert isinstance(accepted, Accepted)
    received = command("c1")
    keys = store.keys("g1")
    # The API process dies after the submit script, before it marks the game anywhere.
    reply = await store.scripts.submit(
        keys=[keys.meta, keys.commands, keys.inbox, keys.rate(received.seat)],
        args=[
            *(received.key, received.seat, "r", received.body, "job", 0, 1000, "g1", 4, 1),
            *(received.command_id, 1),
        ],
    )
    assert reply[0] == b"accepted"
    assert await store.redis.zscore(store.ready_key, "g1") is None
    scheduler = RecordingScheduler()
    pending = PendingIndex(store.redis, store.prefix, store.scripts)
    assert (await sweep(store, pending, scheduler, grace_ms=0)).visited == 1  # g2 only

    # The sweeper's scan for stranded inboxes finds it; the next sweep wakes it
    assert sorted(await store.stranded_games()) == ["g1", "g2"]
    for game_id in await store.stranded_games():
        await pending.mark(game_id)
    report = await sweep(store, pending, scheduler, grace_ms=0)

    assert report.woken == 2
    assert await store.redis.zscore(store.ready_key, "g1") is not None
    assert sorted(await store.take_ready("job", count=5)) == ["g1", "g2"]


async def test_a_commit_that_leaves_commands_puts_the_game_back_in_the_ready_slot(
    store: RedisEventStore,
) -> None:
    await create_game(store, "g1")
    await submit(store, command("c1"))
    await submit(store, command("c2"))
    assert await store.take_ready("job") == ["g1"]
    [turn] = await store.open_round([RoundRequest("g1")], 10_000, 1)
    assert turn is not None and len(turn.commands) == 1

    assert await store.release_lease("g1", turn.lease)

    assert await store.take_ready("job") == ["g1"]


async def test_with_wait_a_command_is_acknowledged_once_a_replica_holds_it(
    redis_cluster: LocalCluster,
) -> None:
    client = event_redis(redis_cluster.url, cluster=True)
    prefix = f"it-wait-{uuid.uuid4().hex[:8]}:"
    try:
        store = RedisEventStore(client, prefix=prefix, replica_wait=ReplicaWait(1, 2000))
        await create_game(store, "g1")
        accepted = await submit(store, command("c1"))
        master = client.get_node_from_key(store.keys("g1").inbox)
        replica_port = _replica_of(redis_cluster, master.port)
        replica = redis.Redis(port=replica_port)
        try:
            replica.execute_command("READONLY")
            field = command("c1").key
            assert replica.hget(store.keys("g1").commands, field) == accepted.inbox_id.encode()
        finally:
            replica.close()

        asking_too_much = RedisEventStore(client, prefix=prefix, replica_wait=ReplicaWait(2, 100))
        with pytest.raises(NotReplicated):
            await submit(asking_too_much, command("c2"))
    finally:
        await client.aclose()


def _replica_of(cluster: LocalCluster, master_port: int) -> int:
    client = redis.Redis(port=master_port)
    try:
        info = client.info("replication")
    finally:
        client.close()
    return int(info["slave0"]["port"])


async def test_a_retried_submit_marks_its_game_again(store: RedisEventStore) -> None:
    await create_game(store, "g1")
    received = command("c1")
    keys = store.keys("g1")
    await store.scripts.submit(
        keys=[keys.meta, keys.commands, keys.inbox, keys.rate(received.seat)],
        args=[
            *(received.key, received.seat, "r", received.body, "job", 0, 1000, "g1", 4, 1),
            *(received.command_id, 1),
        ],
    )  # the API died before the wake; the client, unanswered, sends the command again

    again = await store.submit("g1", received, "job-2", 0, 1000)

    assert isinstance(again, Duplicate)
    assert await store.redis.zscore(store.ready_key, "g1") is not None
    assert await store.redis.zscore(store.pending_key, "g1") is not None


async def test_a_quarantined_game_released_on_a_cluster_is_marked_for_its_waiting_commands(
    store: RedisEventStore,
) -> None:
    await create_game(store, "g1")
    accepted = await store.submit("g1", command("c1"), "job", 0, 1000)
    assert isinstance(accepted, Accepted)
    assert await store.take_ready("job") == ["g1"]  # taken, then the game is quarantined
    settings = Settings(redis_url="redis://unused", redis_cluster=True, key_prefix=store.prefix)
    history = bootstrap.history(store.redis, settings)

    assert await history.quarantine("g1", "operator's check")
    assert await store.head("g1") is None  # out of service
    assert await history.release("g1")

    assert await store.head("g1") is not None
    assert await store.take_ready("job") == ["g1"]
    assert await store.redis.zscore(store.pending_key, "g1") is not None
