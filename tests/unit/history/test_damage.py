"""Repair and quarantine of damaged games (`skald repair`, `skald quarantine`), on fakeredis."""

from __future__ import annotations

import pytest

from domain.games import get_game
from service import bootstrap
from service.adapters.store.redis_store import RedisEventStore
from service.adapters.store.side import Seats
from service.core.codec import codec_for
from service.core.ports.event_store import GameMissing
from service.core.ports.records import ReceivedCommand
from service.core.ports.views import view_field
from service.facade.history_side import HistoryService
from service.history.verify import is_quarantined
from service.shared.errors import GameDamaged, GameQuarantined
from service.shared.settings import Settings
from tests.fakes.race import RaceConfig
from tests.unit.history.conftest import PREFIX
from tests.unit.history.playthrough import play_through_store, seed_of
from tests.unit.history.tamper import delete_event, delete_keys, overwrite_view, strand_command

pytestmark = pytest.mark.anyio


async def race(store: RedisEventStore, game_id: str, stop_after: int | None = None) -> None:
    config = RaceConfig(players=3, target=15)
    await play_through_store(
        store, get_game("race"), config, seed_of(41), game_id, stop_after=stop_after
    )


def service_of(store: RedisEventStore) -> HistoryService:
    return bootstrap.history(store.redis, Settings(key_prefix=PREFIX), store)


def move() -> bytes:
    codec = codec_for("race")
    return codec.canonical(codec.parse_command({"type": "Move", "steps": 1}))


async def test_a_quarantined_game_refuses_every_read_and_command_until_released(
    redis_store: RedisEventStore,
) -> None:
    await race(redis_store, "g1", stop_after=3)
    service = service_of(redis_store)
    assert await service.quarantine("g1", "event 12 lost")
    assert not await service.quarantine("g1", "again")
    seats = Seats(redis_store.redis, PREFIX, redis_store.scripts)
    refused = [
        redis_store.known_meta("g1"),
        redis_store.submit("g1", ReceivedCommand(0, "c", "r", move()), "job", 0, 1000),
        seats.take("g1", None, b"x" * 32, "late"),
    ]
    for call in refused:
        with pytest.raises(GameQuarantined, match=r"quarantined by the operator \(event 12 lost\)"):
            await call
    # The views are set aside: a read misses, and the miss finds the quarantine
    assert await redis_store.view("g1", view_field("json", 0)) is None
    with pytest.raises(GameQuarantined):
        await redis_store.absent("g1")
    [report] = await service.verify_all(["g1"])
    assert is_quarantined(report) and not report.ok
    assert "event 12 lost" in report.checks[0].detail
    # Released: everything is back, and the game is marked for a worker
    assert await service.release("g1")
    assert not await service.release("g1")
    assert (await service.verify("g1")).ok
    assert await redis_store.redis.zscore(redis_store.ready_key, "g1") is not None


async def test_repair_rebuilds_corrupt_views_and_the_head_chain_value(
    redis_store: RedisEventStore,
) -> None:
    await race(redis_store, "g1", stop_after=4)
    await overwrite_view(redis_store.redis, PREFIX, "g1", "json:1", b"garbage")
    await overwrite_view(redis_store.redis, PREFIX, "g1", "turn:p", b"\xc1")
    await redis_store.redis.hset(redis_store.keys("g1").meta, "h", b"\x00" * 32)
    service = service_of(redis_store)
    assert not (await service.verify("g1")).ok
    report = await service.repair("g1")
    assert report.unrepairable == []
    assert report.repaired[0] == "the head's chain value, set to the last event's"
    assert report.repaired[1].startswith("views and turns rebuilt at version ")
    assert (await service.verify("g1")).ok


async def test_repair_names_what_it_cannot_repair(redis_store: RedisEventStore) -> None:
    await race(redis_store, "gap")
    await race(redis_store, "secretless", stop_after=3)
    await delete_event(redis_store.redis, PREFIX, "gap", 7)
    await delete_keys(redis_store.redis, PREFIX, "secretless", "secret")
    service = service_of(redis_store)
    gap = await service.repair("gap")
    assert gap.repaired == []
    assert gap.unrepairable == [
        "event 7 is missing from the stream: events are the record, a lost one cannot be "
        "rebuilt; quarantine the game"
    ]
    secretless = await service.repair("secretless")
    assert secretless.unrepairable[0].startswith("the secret (seed) is missing for a live game")


async def test_repair_marks_a_frozen_game_ready_for_a_worker(redis_store: RedisEventStore) -> None:
    await race(redis_store, "g1", stop_after=0)
    await strand_command(redis_store.redis, PREFIX, "g1", move())
    report = await service_of(redis_store).repair("g1")
    assert report.repaired[-1] == "marked ready for a worker (1 command waiting)"
    assert await redis_store.redis.zscore(redis_store.ready_key, "g1") is not None
    assert await redis_store.redis.zscore(redis_store.pending_key, "g1") is not None


async def test_reads_of_a_game_whose_meta_is_lost_name_the_damage(
    redis_store: RedisEventStore,
) -> None:
    await race(redis_store, "g1", stop_after=2)
    await delete_keys(redis_store.redis, PREFIX, "g1", "meta")
    with pytest.raises(GameDamaged, match="the game's meta record is missing"):
        await redis_store.known_meta("g1")
    with pytest.raises(GameDamaged):
        await redis_store.submit("g1", ReceivedCommand(0, "c", "r", move()), "job", 0, 1000)
    # While a game that never was is simply missing
    with pytest.raises(GameMissing):
        await redis_store.known_meta("never")


async def test_repair_of_a_lost_last_event_keeps_the_head_as_evidence(
    redis_store: RedisEventStore,
) -> None:
    await race(redis_store, "last", stop_after=4)
    meta = redis_store.keys("last").meta
    version, chain = await redis_store.redis.hmget(meta, ["v", "h"])
    await delete_event(redis_store.redis, PREFIX, "last", int(version))
    report = await service_of(redis_store).repair("last")
    # The head still names the lost event's chain value, and the repair says it failed
    assert await redis_store.redis.hget(meta, "h") == chain
    assert "the head's chain value, set to the last event's" not in report.repaired
    assert report.unrepairable
    assert report.unrepairable[0].startswith(
        f"the head says version {int(version)} but the stream ends at version {int(version) - 1}"
    )


async def test_a_repair_that_leaves_verify_failing_is_not_repaired(
    redis_store: RedisEventStore,
) -> None:
    await race(redis_store, "g1", stop_after=4)
    service = service_of(redis_store)
    # A game over whose deadline is still indexed: nothing repair rebuilds puts it right
    await race(redis_store, "over")
    await redis_store.redis.zadd(f"{PREFIX}deadlines", {"over|0|3": 1})
    failing = [c.name for c in (await service.verify("over")).checks if c.status == "failed"]
    assert failing == ["deadlines"]
    report = await service.repair("over")
    assert report.unrepairable == [
        next(
            f"verify still fails its deadlines check: {c.detail}"
            for c in (await service.verify("over")).checks
            if c.status == "failed"
        )
    ]
    # While a healthy game repairs cleanly
    assert (await service.repair("g1")).unrepairable == []
