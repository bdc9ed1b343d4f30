"""Verification of stored games, and rebuilding their projections from events."""

from __future__ import annotations

from typing import Any

import fakeredis
import pytest

from contracts.history import GameVerification
from domain.games import get_game
from service import bootstrap
from service.adapters.store.catalogue import stored_game_ids
from service.adapters.store.redis_store import RedisEventStore
from service.adapters.store.side import Seats
from service.core.codec import codec_for
from service.core.ports.records import ReceivedCommand
from service.core.ports.views import view_field
from service.facade.history_side import HistoryService
from service.shared.errors import GameDamaged
from service.shared.settings import Settings
from tests.fakes.race import RaceConfig
from tests.unit.history.conftest import PREFIX
from tests.unit.history.playthrough import play_through_store, seed_of
from tests.unit.history.tamper import (
    delete_event,
    delete_keys,
    edit_events,
    garble_records,
    overwrite_view,
    strand_command,
    strip_event_field,
    strip_inbox_entry,
)

pytestmark = pytest.mark.anyio

CHECKS = [
    "stream",
    "chain",
    "records",
    "liveness",
    "deadlines",
    "rules",
    "events",
    "outcomes",
    "projections",
    "fairness",
]


def statuses(report: GameVerification) -> dict[str, str]:
    return {check.name: check.status for check in report.checks}


def check(report: GameVerification, name: str) -> Any:
    return next(c for c in report.checks if c.name == name)


async def race(store: RedisEventStore, game_id: str, stop_after: int | None = None) -> int:
    played = await play_through_store(
        store,
        get_game("race"),
        RaceConfig(players=3, target=15),
        seed_of(41),
        game_id,
        stop_after=stop_after,
    )
    return played.last_version


def history_service(store: RedisEventStore) -> HistoryService:
    return bootstrap.history(store.redis, Settings(key_prefix=PREFIX), store)


async def test_untouched_games_pass_every_check(redis_store: RedisEventStore) -> None:
    await race(redis_store, "done")
    await race(redis_store, "playing", stop_after=4)
    service = history_service(redis_store)
    done = await service.verify("done")
    assert done.ok and done.finished
    assert statuses(done) == dict.fromkeys(CHECKS, "ok")
    playing = await service.verify("playing")
    assert playing.ok and not playing.finished
    # The seed of a game in progress is secret: its check waits for the end
    assert statuses(playing) == {**dict.fromkeys(CHECKS, "ok"), "fairness": "skipped"}


async def test_an_event_edited_in_redis_is_detected_and_its_version_named(
    redis_store: RedisEventStore,
) -> None:
    # Given a finished game whose event at version 9 was edited in Redis
    await race(redis_store, "g1")

    def edited(event: dict[str, Any]) -> dict[str, Any]:
        return {**event, "steps": 3} if "steps" in event else {**event, "draw": 0}

    await edit_events(redis_store.redis, PREFIX, "g1", {9: edited}, rechain=False)
    # When it is verified
    report = await history_service(redis_store).verify("g1")
    # Then the chain check fails and names version 9
    assert not report.ok
    chain = check(report, "chain")
    assert chain.status == "failed" and chain.version == 9
    assert "version 9" in chain.detail


async def test_an_event_that_no_longer_decodes_is_named(redis_store: RedisEventStore) -> None:
    await race(redis_store, "g1")
    await edit_events(
        redis_store.redis, PREFIX, "g1", {7: lambda e: {"type": "Teleported"}}, rechain=True
    )
    report = await history_service(redis_store).verify("g1")
    events = check(report, "events")
    assert events.status == "failed" and events.version == 7
    assert statuses(report)["chain"] == "ok"
    assert statuses(report)["projections"] == "skipped"


async def test_damaged_projections_are_detected_and_rebuilt_from_events(
    redis_store: RedisEventStore,
) -> None:
    # Given a game whose stored public view was overwritten with something else
    last = await race(redis_store, "g1", stop_after=5)
    views_key = redis_store.keys("g1").views
    damaged = view_field("json", None)
    good = await redis_store.redis.hget(views_key, damaged)
    await redis_store.redis.hset(views_key, damaged, b'{"view":"not this"}')
    service = history_service(redis_store)
    # When it is verified, then the projections check names the damaged one
    projections = check(await service.verify("g1"), "projections")
    assert projections.status == "failed" and damaged in projections.detail
    # When its projections are rebuilt from events
    result = await service.rebuild("g1")
    # Then they are written at the stream's version, equal to what the worker had stored
    assert result.status == "rebuilt" and result.version == last
    assert await redis_store.redis.hget(views_key, damaged) == good
    assert (await service.verify("g1")).ok


async def test_projections_left_behind_by_the_stream_are_detected(
    redis_store: RedisEventStore,
) -> None:
    last = await race(redis_store, "g1", stop_after=5)
    await redis_store.redis.hset(redis_store.keys("g1").views, "v", last - 2)
    service = history_service(redis_store)
    projections = check(await service.verify("g1"), "projections")
    assert projections.status == "failed"
    assert f"version {last - 2}" in projections.detail
    await service.rebuild("g1")
    assert (await service.verify("g1")).ok


async def test_a_rebuild_never_rolls_back_newer_projections(redis_store: RedisEventStore) -> None:
    # Given a game whose views a worker stored at a newer version than the rebuild will see
    last = await race(redis_store, "g1", stop_after=5)
    views_key = redis_store.keys("g1").views
    await redis_store.redis.hset(views_key, mapping={"v": last + 1, "json:p": b"newer"})
    # When its projections are rebuilt
    result = await history_service(redis_store).rebuild("g1")
    # Then nothing is written
    assert result.status == "newer"
    assert await redis_store.redis.hget(views_key, "json:p") == b"newer"


async def test_verifying_many_games_goes_on_past_failures(redis_store: RedisEventStore) -> None:
    await race(redis_store, "good")
    await race(redis_store, "bad")
    await edit_events(
        redis_store.redis, PREFIX, "bad", {3: lambda e: e | {"draw": 7}}, rechain=False
    )
    seen: list[str] = []
    reports = await history_service(redis_store).verify_all(
        ["bad", "gone", "good"], lambda report: seen.append(report.game_id)
    )
    assert seen == ["bad", "gone", "good"]
    assert [report.ok for report in reports] == [False, False, True]
    assert check(reports[1], "stream").detail == "no game 'gone'"


async def test_every_game_under_the_prefix_is_found(
    redis_store: RedisEventStore, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    await race(redis_store, "b-game", stop_after=1)
    await race(redis_store, "a_game", stop_after=1)
    elsewhere = RedisEventStore(fake_redis, "other:")
    await race(elsewhere, "not-ours", stop_after=1)
    assert await stored_game_ids(fake_redis, PREFIX) == ["a_game", "b-game"]
    assert await history_service(redis_store).game_ids() == ["a_game", "b-game"]


def failures(report: GameVerification) -> dict[str, str]:
    return {c.name: c.detail for c in report.checks if c.status == "failed"}


async def test_a_game_whose_meta_was_deleted_is_listed_and_named(
    redis_store: RedisEventStore, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    await race(redis_store, "g1", stop_after=3)
    await delete_keys(fake_redis, PREFIX, "g1", "meta")
    assert await stored_game_ids(fake_redis, PREFIX) == ["g1"]
    [report] = await history_service(redis_store).verify_all(["g1"])
    assert not report.ok
    assert failures(report) == {
        "records": "the meta record is missing (the game's commands, events, inbox, seats, "
        "secret, views remain)"
    }


async def test_a_live_game_without_its_secret_fails(redis_store: RedisEventStore) -> None:
    await race(redis_store, "live", stop_after=3)
    await race(redis_store, "done")
    await delete_keys(redis_store.redis, PREFIX, "live", "secret")
    await delete_keys(redis_store.redis, PREFIX, "done", "secret")
    service = history_service(redis_store)
    live = await service.verify("live")
    assert not live.ok
    assert failures(live)["records"].startswith("the secret (seed) is missing for a live game")
    # A finished game's seed is revealed in its stream: nothing is lost with the key
    assert (await service.verify("done")).ok


async def test_a_live_game_without_its_seat_records_fails_and_no_stranger_takes_a_seat(
    redis_store: RedisEventStore,
) -> None:
    await race(redis_store, "g1", stop_after=3)
    await delete_keys(redis_store.redis, PREFIX, "g1", "seats")
    report = await history_service(redis_store).verify("g1")
    assert failures(report) == {
        "records": "seat records missing for seats 0, 1, 2: taken by players whose tokens are lost"
    }
    seats = Seats(redis_store.redis, PREFIX, redis_store.scripts)
    for seat in (0, None):
        with pytest.raises(GameDamaged, match="the record of seat 0 is missing"):
            await seats.take("g1", seat, b"x" * 32, "stranger")
    assert await seats.token_hashes("g1") == {}


async def test_a_frozen_game_is_reported_with_its_waiting_commands(
    redis_store: RedisEventStore,
) -> None:
    await race(redis_store, "g1", stop_after=0)
    codec = codec_for("race")
    body = codec.canonical(codec.parse_command({"type": "Move", "steps": 1}))
    await strand_command(redis_store.redis, PREFIX, "g1", body)
    report = await history_service(redis_store).verify("g1")
    liveness = check(report, "liveness")
    assert liveness.status == "failed"
    assert liveness.detail.startswith("frozen: 1 command queued for ")
    assert liveness.detail.endswith("with no worker on the game and it is not marked ready")
    # Marked ready with no runner alive is frozen too; a live runner would take it
    await redis_store.redis.zadd(redis_store.ready_key, {"g1": 1})
    again = check(await history_service(redis_store).verify("g1"), "liveness")
    assert again.detail.endswith("and no runner is alive")


async def test_a_fresh_command_waiting_for_its_worker_is_not_frozen(
    redis_store: RedisEventStore,
) -> None:
    await race(redis_store, "g1", stop_after=2)
    codec = codec_for("race")
    command = ReceivedCommand(
        0, "late", "r", codec.canonical(codec.parse_command({"type": "Move", "steps": 1}))
    )
    await redis_store.submit("g1", command, "job-1", 0, 1000)
    report = await history_service(redis_store).verify("g1")
    assert check(report, "liveness").status == "ok"


async def test_a_deleted_event_is_named(redis_store: RedisEventStore) -> None:
    await race(redis_store, "g1")
    await delete_event(redis_store.redis, PREFIX, "g1", 12)
    [report] = await history_service(redis_store).verify_all(["g1"])
    stream = check(report, "stream")
    assert (stream.status, stream.version) == ("failed", 12)
    assert stream.detail == "event 12 is missing from the stream"


@pytest.mark.parametrize(
    ("field", "data", "detail"),
    [
        ("json:1", b"not json at all", "the stored view 'json:1' does not decode"),
        ("msgpack:p", b"\xc1", "the stored view 'msgpack:p' does not decode"),
        ("turn:0", b"\x92\x01", "the stored view 'turn:0' does not decode"),
        (
            "json:0",
            b'{"game_id":"other","version":1}',
            "the stored view 'json:0' is of game 'other' at version 1",
        ),
    ],
)
async def test_a_corrupt_stored_view_is_named(
    redis_store: RedisEventStore, field: str, data: bytes, detail: str
) -> None:
    await race(redis_store, "g1", stop_after=3)
    await overwrite_view(redis_store.redis, PREFIX, "g1", field, data)
    [report] = await history_service(redis_store).verify_all(["g1"])
    projections = check(report, "projections")
    assert projections.status == "failed"
    assert projections.detail.startswith(detail)


async def test_garbled_outcome_records_and_inbox_entries_are_named(
    redis_store: RedisEventStore,
) -> None:
    await race(redis_store, "records", stop_after=4)
    await race(redis_store, "inbox", stop_after=4)
    await garble_records(redis_store.redis, PREFIX, "records")
    entry = await strip_inbox_entry(redis_store.redis, PREFIX, "inbox")
    records, inbox = await history_service(redis_store).verify_all(["records", "inbox"])
    assert failures(records) == {"outcomes": "a command's outcome record does not decode"}
    assert failures(inbox) == {"stream": f"inbox entry {entry} is malformed"}


@pytest.mark.parametrize(
    ("field", "value", "detail"),
    [
        ("v", b"seven", "the head's version 'seven' is not a number"),
        ("cur", b"yesterday", "the head's inbox cursor is missing or malformed"),
        ("seats", b"many", "the meta record lacks the game's fixed facts"),
    ],
)
async def test_a_garbled_head_or_meta_is_named(
    redis_store: RedisEventStore, field: str, value: bytes, detail: str
) -> None:
    await race(redis_store, "g1", stop_after=2)
    await redis_store.redis.hset(redis_store.keys("g1").meta, field, value)
    [report] = await history_service(redis_store).verify_all(["g1"])
    assert failures(report) == {"stream": detail}


async def test_an_event_without_its_chain_value_is_named(redis_store: RedisEventStore) -> None:
    await race(redis_store, "g1", stop_after=4)
    await strip_event_field(redis_store.redis, PREFIX, "g1", 6, b"h")
    [report] = await history_service(redis_store).verify_all(["g1"])
    assert failures(report) == {"stream": "event 6 lacks its chain value"}
