"""Drain shards on a real Redis Cluster: a game created into a shard is submitted to, put back
and released in one script on its own slot; runners take from every shard; a game in no
shard's slot (created before the shards) still drains, on the `{drain}` path, alongside."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest
from redis.crc import key_slot

from service import bootstrap
from service.adapters.notifications import Publisher
from service.adapters.redis_clients import event_redis
from service.adapters.store.drain_shards import DrainShards, shard_slot, slot_of
from service.adapters.store.inspection import RedisKeyInspector
from service.adapters.store.redis_store import RedisEventStore
from service.adapters.store.side import Lobby, PendingIndex, Views
from service.core.pipeline.drain import Drainer
from service.core.pipeline.runner import DrainRunner
from service.core.pipeline.session import SessionCache
from service.core.pipeline.sweep import sweep
from service.core.ports.records import Accepted, RoundRequest
from service.shared.settings import Settings
from tests.cluster.local_cluster import LocalCluster
from tests.fakes.race import RaceConfig, register_race
from tests.fakes.scheduler import RecordingScheduler
from tests.unit.adapters.store_contract import command, create_game

pytestmark = [pytest.mark.anyio]


@pytest.fixture
async def store(redis_cluster: LocalCluster) -> AsyncIterator[RedisEventStore]:
    client = event_redis(redis_cluster.url, cluster=True)
    store = RedisEventStore(client, prefix=f"it-shards-{uuid.uuid4().hex[:8]}:")
    assert store.drain.sharded
    yield store
    await client.aclose()


def no_second_step(store: RedisEventStore) -> list[str]:
    """Record any wake of the two-step path (a sharded game must never need one)."""
    woken: list[str] = []
    original = store.wake_game

    async def wake_game(game_id: str, *args: Any, **kwargs: Any) -> bool:
        woken.append(game_id)
        return await original(game_id, *args, **kwargs)

    store.wake_game = wake_game  # type: ignore[method-assign]
    return woken


def test_new_ids_land_in_their_shards_slots_round_robin() -> None:
    shards = DrainShards("p:", cluster=True, shards=16)
    ids = [shards.new_game_id(f"head{n:04d}") for n in range(64)]
    for game_id in ids:
        index = shards.of(game_id)
        assert index.shard is not None and index.atomic
        # The game's keys and its shard's indexes hash to one slot.
        assert key_slot(f"p:game:{{{game_id}}}:meta".encode()) == key_slot(index.ready.encode())
        assert key_slot(index.ready.encode()) == shard_slot(index.shard, 16)
    assert sorted({shards.of(game_id).shard for game_id in ids}) == list(range(16))
    # An id from before (in no shard's slot) keeps the `{drain}` indexes, in two steps.
    assert slot_of("g1") not in {shard_slot(n, 16) for n in range(16)}
    assert shards.of("g1") == shards.legacy and not shards.legacy.atomic
    assert shards.legacy.ready == "p:{drain}ready"


def test_one_redis_keeps_its_one_set_of_indexes() -> None:
    shards = DrainShards("p:", cluster=False, shards=16)
    assert not shards.sharded
    assert shards.new_game_id("abc") == "abc"
    assert shards.of("abc").ready == "p:ready" and shards.of("abc").atomic


async def test_a_submit_to_a_sharded_game_is_one_script(store: RedisEventStore) -> None:
    game_id = store.placed_game_id("shardgame")
    index = store.drain_index(game_id)
    assert index.shard is not None
    await create_game(store, game_id)
    woken = no_second_step(store)

    accepted = await store.submit(game_id, command("c1"), "job-1", 0, 1000)

    # Marked ready and pending, and a runner slot claimed in its shard, by the script alone.
    assert isinstance(accepted, Accepted) and accepted.start_runner
    assert woken == []
    assert await store.redis.zscore(index.ready, game_id) is not None
    assert await store.redis.zscore(index.pending, game_id) is not None
    assert await store.redis.zscore(index.runners, "job-1") is not None
    assert await store.redis.zscore(store.drain.legacy.ready, game_id) is None
    # The shard has one runner slot (4 runners over 16 shards, at least one each).
    again = await store.submit(game_id, command("c2"), "job-2", 0, 1000)
    assert isinstance(again, Accepted) and not again.start_runner


async def test_a_release_puts_a_sharded_game_back_in_the_same_step(
    store: RedisEventStore,
) -> None:
    game_id = store.placed_game_id("releasing")
    index = store.drain_index(game_id)
    await create_game(store, game_id)
    await store.submit(game_id, command("c1"), "job-1", 0, 1000)
    assert await store.take_ready("job-1", 16) == [game_id]
    [turn] = await store.open_round([RoundRequest(game_id)], 30_000, 10)
    assert turn is not None
    woken = no_second_step(store)

    assert await store.release_lease(game_id, turn.lease)

    assert woken == []
    assert await store.redis.zscore(index.ready, game_id) is not None


async def test_a_runner_takes_from_every_shard_and_the_legacy_set(store: RedisEventStore) -> None:
    games = [store.placed_game_id(f"many{n}") for n in range(6)]
    for game_id in [*games, "g1"]:
        await create_game(store, game_id)
        await store.submit(game_id, command("c1"), f"job-{game_id}", 0, 1000)
    assert len({store.drain_index(game_id).shard for game_id in games}) == 6

    taken = await store.take_ready(f"job-{games[0]}", 16)

    assert sorted(taken) == sorted([*games, "g1"])
    # Its own slot is in its game's shard: ending there with nothing ready frees it.
    runners = store.drain_index(games[0]).runners
    assert not await store.end_runner(f"job-{games[0]}", "next")
    assert await store.redis.zscore(runners, f"job-{games[0]}") is None


async def test_a_runner_ending_hands_its_shard_over_when_games_wait(
    store: RedisEventStore,
) -> None:
    game_id = store.placed_game_id("handover")
    index = store.drain_index(game_id)
    await create_game(store, game_id)
    await store.submit(game_id, command("c1"), "job-1", 0, 1000)
    await store.take_ready("job-1", 16)
    await store.wake_game(game_id, "", False)  # ready again meanwhile

    assert await store.end_runner("job-1", "job-next")

    assert await store.redis.zscore(index.runners, "job-1") is None
    assert await store.redis.zscore(index.runners, "job-next") is not None


async def test_the_sweeper_and_inspection_see_each_shard(store: RedisEventStore) -> None:
    game_id = store.placed_game_id("swept")
    await create_game(store, game_id)
    await store.submit(game_id, command("c1"), "job-1", 0, 1000)
    await store.take_ready("job-1", 16)  # the runner died holding it
    pending = PendingIndex(store.redis, store.prefix, store.scripts)
    assert [g for g, _ in await pending.marked_before(10**15, 100)] == [game_id]

    scheduler = RecordingScheduler()
    report = await sweep(store, pending, scheduler, grace_ms=0)

    assert report.woken == 1
    state = await RedisKeyInspector(store.redis, store.prefix).inspect(game_id)
    assert state.ready_since_ms is not None and state.live_runners == 1


async def test_sharded_and_unsharded_games_drain_together(redis_cluster: LocalCluster) -> None:
    register_race()
    prefix = f"it-shards-{uuid.uuid4().hex[:8]}:"
    settings = Settings(
        redis_url=redis_cluster.url,
        redis_cluster=True,
        key_prefix=prefix,
        rate_per_seat=0,
        runner_idle_s=0.0,
    )
    redis = event_redis(redis_cluster.url, cluster=True)
    scheduler = RecordingScheduler()
    skald = bootstrap.skald(settings, redis, scheduler)
    store = skald.store
    config = msgspec.to_builtins(RaceConfig(players=2, target=10**9))
    created = [(await skald.commands.create_game("race", config)).game_id for _ in range(8)]
    # A game from before the shards: its id in no shard's slot.
    store.placed_game_id = lambda head: head  # type: ignore[method-assign]
    created.append((await skald.commands.create_game("race", config)).game_id)
    assert [store.drain_index(g).atomic for g in created] == [True] * 8 + [False]
    drainer = Drainer(
        store,
        Views(redis, prefix, store.scripts),
        Lobby(redis, prefix),
        Publisher(redis, prefix),
        SessionCache(64),
        64,
        10_000,
    )
    runner = DrainRunner.configured(settings, store, drainer, scheduler)
    first = {g: (await skald.reads.turn(g, None)).to_act[0] for g in created}
    for n in range(6):
        for game_id in created:
            seat = first[game_id] if n % 2 == 0 else 1 - first[game_id]
            await skald.commands.submit(game_id, seat, f"c{n}", {"type": "Move", "steps": 1}, "r")

    await scheduler.run_all(runner)

    for game_id in created:
        assert (await skald.commands.outcome(game_id, "c5")).status == "applied"
        assert (await skald.reads.turn(game_id, None)).version > 6
    for index in store.drain.every:
        assert await redis.zcard(index.ready) == 0
        assert await redis.zcard(index.runners) == 0
    await redis.aclose()


async def test_a_runner_started_for_a_shard_first_takes_from_it_alone(
    store: RedisEventStore,
) -> None:
    mine, other = store.placed_game_id("mine"), store.placed_game_id("other")
    assert store.drain_index(mine) != store.drain_index(other)
    for game_id in (mine, other):
        await create_game(store, game_id)
    job = store.runner_job_for(mine, "job-mine")
    assert job == f"job-mine-shard{store.drain_index(mine).shard}"
    await store.submit(mine, command("c1"), job, 0, 1000)
    await store.take_ready("someone-else", 16)  # another runner took its game meanwhile
    await store.submit(other, command("c1"), store.runner_job_for(other, "job-other"), 0, 1000)

    # Its first take looks at its own shard only, finds nothing, and it ends there.
    assert await store.take_ready(job, 16) == []
    assert not await store.end_runner(job, "next")
    assert await store.redis.zscore(store.drain_index(mine).runners, job) is None
    # The other shard's game waits for the runner its own submit started.
    assert await store.take_ready(store.runner_job_for(other, "job-other"), 16) == [other]


async def test_a_busy_runner_still_finds_a_game_in_a_quiet_shard(store: RedisEventStore) -> None:
    busy, quiet = store.placed_game_id("busy"), store.placed_game_id("quiet")
    for game_id in (busy, quiet):
        await create_game(store, game_id)
    job = store.runner_job_for(busy, "job-busy")
    await store.submit(busy, command("c1"), job, 0, 1000)
    assert await store.take_ready(job, 16) == [busy]
    assert await store.take_ready(job, 16) == []  # a pass over every shard
    await store.wake_game(busy, "", False)
    await store.wake_game(quiet, "", False)

    # Between full passes it takes from the shards that were busy, and from all when they
    # run dry: the quiet shard's game is taken all the same.
    first = await store.take_ready(job, 16)
    second = await store.take_ready(job, 16)
    assert sorted(first + second) == sorted([busy, quiet])
