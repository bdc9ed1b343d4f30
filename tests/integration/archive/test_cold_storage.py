"""Finished games leave Redis for the archive (a directory, PostgreSQL) and read the same."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import fakeredis
import msgspec
import pytest

from contracts.system import Resign
from domain.games import get_game
from domain.table import SYSTEM_SEAT, resign_id
from service import bootstrap
from service.adapters.archive.directory_archive import DirectoryArchive
from service.core.archiving import Archiver
from service.core.pipeline.lifecycle import queue_system
from service.core.ports.archive import ArchiveStore, ArchiveUnavailable
from service.core.ports.archive_record import ArchivedEvent, decode_archive, encode_archive
from service.history.archived_games import ArchiveBackedStore, GameOver
from service.history.audit import audit_version
from service.history.disclosure import OPERATOR, SPECTATOR
from service.history.replay import replay_frame
from service.shared.errors import GameDamaged
from tests.fakes.players import play_through_service
from tests.fakes.race import RaceGame, race_config
from tests.unit.facade.harness import Harness, make_harness

pytestmark = pytest.mark.anyio


async def played(harness: Harness, game: str, seed: int) -> str:
    """A game of `game` played to its end by seeded bots; its id."""
    if game == "race":
        config = race_config(2, target=12)
    else:
        config = msgspec.to_builtins(get_game(game).example_configs()[0])
    skald = harness.skald
    game_id = (await skald.commands.create_game(game, config)).game_id

    async def settle(command_id: str) -> Any:
        await harness.run_jobs()
        return await skald.commands.outcome(game_id, command_id)

    for seat in range(config["players"]):  # named seats: views and the archive name them
        await skald.commands.join(game_id, seat, f"Player {seat}")
    await play_through_service(skald, game_id, [seed + n for n in range(config["players"])], settle)
    return game_id


def wired(harness: Harness, archive: ArchiveStore) -> tuple[Archiver, ArchiveBackedStore]:
    """The archiver and the reading store on the harness's Redis and `archive`."""
    skald = harness.skald
    settings = msgspec.structs.replace(skald.settings, archive_after_s=0.0)
    reads = bootstrap.archived_reads(skald.store, settings, archive)
    return bootstrap.archiver(skald.store.redis, settings, archive), reads


async def everything_read(harness: Harness, reads: ArchiveBackedStore, game_id: str) -> Any:
    """Every answer the service gives about a finished game, encoded for comparison."""
    history = bootstrap.history(harness.skald.store.redis, harness.skald.settings, reads)
    game = await history.history(game_id)
    last = game.last_version
    seats = game.meta.seats
    answers: dict[str, Any] = {
        "fairness": await history.fairness(game_id),
        "verify": [(c.name, c.status) for c in (await history.verify(game_id)).checks],
        "head": await reads.head(game_id),
        "meta": await reads.meta(game_id),
        "seed": await reads.seed(game_id),
        "events": await reads.read(game_id),
        "page": await reads.read(game_id, 3, 5),
        "inbox": await reads.inbox(game_id, "0-0", 1000),
        "tokens": await reads.token_hashes(game_id),
        "names": await reads.names(game_id, seats),
    }
    for version in range(1, last + 1):
        answers[f"replay {version}"] = replay_frame(game, OPERATOR, version)
        answers[f"audit {version}"] = audit_version(game, version, SPECTATOR)
    for seat in [None, *range(seats)]:
        for fmt in ("json", "msgpack", "turn"):
            name = f"{fmt}:{'p' if seat is None else seat}"
            answers[f"view {name}"] = await reads.view(game_id, name)
    for received in answers["inbox"]:
        answers[f"command {received.key}"] = await reads.command(
            game_id, received.seat, received.command_id
        )
    return msgspec.msgpack.encode(answers)


async def redis_keys(harness: Harness, game_id: str) -> list[bytes]:
    """The game's keys still in Redis."""
    redis = harness.skald.store.redis
    return [key async for key in redis.scan_iter(match=f"*{{{game_id}}}*")]


async def test_an_archived_game_reads_the_same_and_leaves_redis(
    fake_redis: fakeredis.aioredis.FakeRedis,
    make_archive: Callable[[], ArchiveStore],
    race: RaceGame,
) -> None:
    harness = make_harness(fake_redis, rate_per_seat=0)
    archiver, reads = wired(harness, make_archive())
    finished = [await played(harness, "fjords", 7), await played(harness, "race", 9)]
    before = {game_id: await everything_read(harness, reads, game_id) for game_id in finished}
    assert await reads.names(finished[1], 2) == {0: "Player 0", 1: "Player 1"}

    report = await archiver.run()

    assert sorted(report.archived) == sorted(finished)
    for game_id in finished:
        assert await redis_keys(harness, game_id) == []
        # A fresh reader (nothing cached) reads the archive alone.
        _, cold_reads = wired(harness, make_archive())
        assert await everything_read(harness, cold_reads, game_id) == before[game_id]


async def test_the_facade_serves_archived_games_and_refuses_their_commands(
    fake_redis: fakeredis.aioredis.FakeRedis,
    make_archive: Callable[[], ArchiveStore],
    race: RaceGame,
) -> None:
    harness = make_harness(fake_redis, rate_per_seat=0)
    archive = make_archive()
    archiver, _ = wired(harness, archive)
    game_id = await played(harness, "race", 3)
    skald = bootstrap.skald(
        harness.skald.settings, fake_redis, harness.scheduler
    )  # a facade whose reads fall back to the test's archive
    skald.reads.store.archive = skald.history.store.archive = archive
    view, turn = await skald.reads.view(game_id, None), await skald.reads.turn(game_id, 0)

    assert (await archiver.run()).archived == [game_id]

    assert await skald.reads.view(game_id, None) == view
    assert await skald.reads.turn(game_id, 0) == turn
    with pytest.raises(GameOver):
        await skald.commands.submit(game_id, 0, "late", {"type": "Move", "steps": 1}, "r")
    assert await redis_keys(harness, game_id) == []


async def test_games_in_play_and_games_not_due_stay_in_redis(
    fake_redis: fakeredis.aioredis.FakeRedis,
    make_archive: Callable[[], ArchiveStore],
    race: RaceGame,
) -> None:
    harness = make_harness(fake_redis, rate_per_seat=0)
    archive = make_archive()
    finished = await played(harness, "race", 5)
    config = msgspec.to_builtins(get_game("fjords").example_configs()[0])
    in_play = (await harness.skald.commands.create_game("fjords", config)).game_id
    not_yet = bootstrap.archiver(fake_redis, harness.skald.settings, archive)  # after 1 hour

    report = await not_yet.run()

    assert report.archived == [] and report.not_due == 1
    archiver, _ = wired(harness, archive)
    assert (await archiver.run()).archived == [finished]
    assert await redis_keys(harness, in_play) != []
    assert (await archiver.archive_game(in_play, None)).status == "in_play"


async def test_a_command_received_while_archiving_keeps_the_game_in_redis(
    fake_redis: fakeredis.aioredis.FakeRedis,
    make_archive: Callable[[], ArchiveStore],
    race: RaceGame,
) -> None:
    harness = make_harness(fake_redis, rate_per_seat=0)
    archiver, reads = wired(harness, make_archive())
    game_id = await played(harness, "race", 4)
    snapshot = await archiver.hot.snapshot(game_id)
    assert snapshot is not None
    # A player's command to a game over is refused at once; the service's own are queued
    late = resign_id(0)
    assert await queue_system(harness.skald.store, harness.scheduler, game_id, late, Resign(0))

    assert not await archiver.hot.drop(snapshot[0])  # the version-checked delete refuses

    await harness.run_jobs()  # the late command is refused (the game is over)...
    assert (await archiver.run()).archived == [game_id]  # ...and then the game is archived
    assert (await reads.command(game_id, SYSTEM_SEAT, late)).status == "refused"


async def test_a_directory_that_cannot_be_written_loses_nothing(
    fake_redis: fakeredis.aioredis.FakeRedis, tmp_path: Any, race: RaceGame
) -> None:
    harness = make_harness(fake_redis, rate_per_seat=0)
    blocked = tmp_path / "not-a-directory"
    blocked.write_bytes(b"")  # every game's shard directory would have to be made inside a file
    archive = bootstrap.archive(
        msgspec.structs.replace(harness.skald.settings, data_dir=str(blocked))
    )
    archiver, reads = wired(harness, archive)
    game_id = await played(harness, "race", 6)
    before = await everything_read(harness, reads, game_id)

    report = await archiver.run()

    assert report.archived == [] and "cannot write" in report.kept[game_id]
    assert await everything_read(harness, reads, game_id) == before


async def test_an_archived_game_whose_archive_is_down_is_unavailable_not_missing(
    fake_redis: fakeredis.aioredis.FakeRedis,
    make_archive: Callable[[], ArchiveStore],
    race: RaceGame,
) -> None:
    harness = make_harness(fake_redis, rate_per_seat=0)
    archiver, _ = wired(harness, make_archive())
    game_id = await played(harness, "race", 8)
    assert (await archiver.run()).archived == [game_id]
    _, broken = wired(
        harness,
        bootstrap.archive(
            msgspec.structs.replace(
                harness.skald.settings, archive_url="postgresql://nobody@127.0.0.1:1/none"
            )
        ),
    )

    with pytest.raises(ArchiveUnavailable):
        await broken.head(game_id)


async def test_a_tampered_archive_record_reads_as_damaged(
    fake_redis: fakeredis.aioredis.FakeRedis, tmp_path: Any, race: RaceGame
) -> None:
    harness = make_harness(fake_redis, rate_per_seat=0)
    archive = DirectoryArchive(tmp_path)
    archiver, _ = wired(harness, archive)
    game_id = await played(harness, "race", 10)
    assert (await archiver.run()).archived == [game_id]
    record = decode_archive(game_id, archive.path(game_id).read_bytes())
    data = record.events[2].data
    altered = data[:-1] + bytes([data[-1] ^ 1])  # one bit of the event's last value flipped
    events = [*record.events[:2], ArchivedEvent(altered, record.events[2].command_id)]
    tampered = msgspec.structs.replace(record, events=events + record.events[3:])
    archive.path(game_id).write_bytes(encode_archive(tampered))
    _, reads = wired(harness, archive)

    with pytest.raises(GameDamaged, match="chain head"):
        await reads.head(game_id)
    archive.path(game_id).write_bytes(b"not zstd")
    _, reads = wired(harness, archive)
    with pytest.raises(GameDamaged, match="unreadable"):
        await reads.head(game_id)


async def test_verify_with_no_game_named_covers_archived_games_too(
    fake_redis: fakeredis.aioredis.FakeRedis,
    make_archive: Callable[[], ArchiveStore],
    race: RaceGame,
) -> None:
    harness = make_harness(fake_redis, rate_per_seat=0)
    archiver, reads = wired(harness, make_archive())
    archived = await played(harness, "race", 11)
    assert (await archiver.run()).archived == [archived]
    in_redis = await played(harness, "race", 12)
    history = bootstrap.history(harness.skald.store.redis, harness.skald.settings, reads)

    every = await history.every_game_id()

    assert await history.game_ids() == [in_redis]  # Redis alone, as rebuild-projections uses
    assert every == sorted([archived, in_redis])
    reports = await history.verify_all(every)
    assert [report.ok for report in reports] == [True, True]
