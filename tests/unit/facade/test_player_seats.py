"""A player's seats: one per game (a retry answers the same seat), the index of games not over
behind the active limit (kept when games end, built once for players made before it),
giving a seat back before the start, open games expired by the workers, a rematch's seats
kept for its former players, and verify naming a player in two seats."""

from __future__ import annotations

from collections.abc import AsyncIterator

import fakeredis
import pytest

from contracts.stream import GameCancelled
from service import bootstrap
from service.adapters.store.keys import GameKeys
from service.adapters.store.open_rooms import OpenRooms
from service.core.codec import codec_for
from service.core.pipeline.open_rooms import expire_open_rooms
from service.core.ports.players import player_seat_value
from service.shared.errors import Conflict, Forbidden, RetryLater
from tests.fakes.race import RaceGame, race_config
from tests.unit.facade.harness import Harness, make_harness

pytestmark = pytest.mark.anyio

PREFIX = "t:"  # make_harness's key prefix


@pytest.fixture
async def harness(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> AsyncIterator[Harness]:
    made = make_harness(fake_redis, max_active_games_per_player=2, rematch_hold_s=600.0)
    yield made
    await made.skald.close()


async def players_game(harness: Harness, creator: str, players: int = 2) -> str:
    created = await harness.skald.players.create_game(creator, "race", race_config(players), None)
    return created.game_id


async def test_a_retried_join_answers_the_seat_already_held(harness: Harness) -> None:
    players = harness.skald.players
    ada = await players.register("Ada")
    game_id = await players_game(harness, ada.player_id, 4)
    first = await players.join(ada.player_id, game_id, None)
    again = await players.join(ada.player_id, game_id, None)
    assert first.seat == again.seat == 0
    held = await harness.skald.seats.token_hashes(game_id)
    assert list(held.values()) == [player_seat_value(ada.player_id)]


async def test_a_game_over_frees_its_place_under_the_active_limit(harness: Harness) -> None:
    players = harness.skald.players
    ada, bo = await players.register("Ada"), await players.register("Bo")
    first = await players_game(harness, ada.player_id)
    second = await players_game(harness, ada.player_id)
    third = await players_game(harness, bo.player_id)
    await players.join(ada.player_id, first, 0)
    await players.join(ada.player_id, second, 0)
    with pytest.raises(Conflict) as limited:
        await players.join(ada.player_id, third, 0)
    assert (limited.value.code, limited.value.status) == ("player.active_limit", 429)
    await players.cancel(ada.player_id, first)
    await harness.run_jobs()
    # The cancel's commit took the game out of Ada's index: the limit reads no game's turn.
    assert await players.seats.active(ada.player_id) == [second]
    assert (await players.join(ada.player_id, third, 0)).seat == 0


async def test_a_player_made_before_the_index_has_it_built_once(
    harness: Harness, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    players = harness.skald.players
    ada, bo = await players.register("Ada"), await players.register("Bo")
    games = [await players_game(harness, bo.player_id) for _ in range(3)]
    await players.join(ada.player_id, games[0], 0)
    await players.join(ada.player_id, games[1], 0)
    # As stored before the index: no index and no mark that it is complete.
    await fake_redis.delete(f"{PREFIX}player:{ada.player_id}:active")
    with pytest.raises(Conflict) as limited:
        await players.join(ada.player_id, games[2], 0)
    assert limited.value.code == "player.active_limit"
    assert await players.seats.active(ada.player_id) == sorted(games[:2])


async def test_a_seat_is_given_back_before_the_start_only(harness: Harness) -> None:
    players = harness.skald.players
    ada, bo, cy = [await players.register(name) for name in ("Ada", "Bo", "Cy")]
    game_id = await players_game(harness, ada.player_id, 3)
    await players.join(ada.player_id, game_id, 0)
    await players.join(bo.player_id, game_id, 1)
    assert await players.leave(bo.player_id, game_id) == 1
    assert await players.seats.active(bo.player_id) == []
    assert await players.seat_of(bo.player_id, game_id) is None
    with pytest.raises(Forbidden) as no_seat:
        await players.leave(bo.player_id, game_id)
    assert no_seat.value.code == "player.no_seat"
    assert (await players.join(cy.player_id, game_id, 1)).seat == 1  # free again
    verified = await harness.skald.history.verify(game_id)
    assert verified.ok, verified  # no seat's record reads as lost
    await players.join(bo.player_id, game_id, 2)  # every seat held: it starts
    with pytest.raises(Conflict) as started:
        await players.leave(cy.player_id, game_id)
    assert started.value.code == "seat.game_started"
    await harness.run_jobs()
    with pytest.raises(Conflict):
        await players.leave(cy.player_id, game_id)
    assert await players.seat_of(cy.player_id, game_id) == 1


async def test_a_guests_game_keeps_a_players_seat(harness: Harness) -> None:
    players = harness.skald.players
    ada = await players.register("Ada")
    game_id = (await harness.skald.commands.create_game("race", race_config(3))).game_id
    await players.join(ada.player_id, game_id, 0)
    with pytest.raises(Conflict) as started:
        await players.leave(ada.player_id, game_id)  # a guest's game started at creation
    assert started.value.code == "seat.game_started"


async def test_open_games_waiting_too_long_are_cancelled_and_their_players_told(
    harness: Harness, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    players = harness.skald.players
    ada, bo = await players.register("Ada"), await players.register("Bo")
    waiting = await players_game(harness, ada.player_id, 3)
    await players.join(ada.player_id, waiting, 0)
    await players.join(bo.player_id, waiting, 1)
    started = await players_game(harness, ada.player_id)
    await players.join(ada.player_id, started, 0)
    await players.start(ada.player_id, started)
    await harness.run_jobs()
    rooms = OpenRooms(fake_redis, PREFIX)
    fresh = await expire_open_rooms(rooms, harness.skald.store, harness.scheduler, 60_000, 10)
    assert fresh == []  # none waited a minute
    expired = await expire_open_rooms(rooms, harness.skald.store, harness.scheduler, 0, 10)
    assert expired == [waiting]  # the started one left the index when it started
    await harness.run_jobs()
    assert (await harness.skald.reads.turn(waiting, None)).phase == "cancelled"
    codec = codec_for("race")
    events = [codec.decode_event(e.data) for e in await harness.skald.store.read(waiting)]
    assert GameCancelled("", "expired") in events
    assert (await harness.skald.reads.turn(started, None)).phase == "started"
    assert await players.seats.active(bo.player_id) == []
    projector = bootstrap.notification_projector(
        harness.skald.settings, harness.skald.redis, harness.skald.store
    )
    while (await projector.step()).games:
        pass
    side = harness.skald.notifications
    assert side is not None
    for player in (ada, bo):
        kinds = [
            (entry.notification.kind, entry.notification.game_id)
            for entry in (await side.page(player.player_id, "0", 20)).notifications
        ]
        assert ("game_cancelled", waiting) in kinds


async def test_a_rematch_keeps_its_seats_for_the_former_players(harness: Harness) -> None:
    players, commands = harness.skald.players, harness.skald.commands
    ada, bo, cy = [await players.register(name) for name in ("Ada", "Bo", "Cy")]
    game_id = await players_game(harness, ada.player_id)
    await players.join(ada.player_id, game_id, 0)
    await players.join(bo.player_id, game_id, 1)
    await harness.run_jobs()
    for step in range(400):
        turn = await harness.skald.reads.turn(game_id, None)
        if turn.finished:
            break
        seat = turn.to_act[0]
        legal = (await harness.skald.reads.turn(game_id, seat)).legal_commands
        await commands.submit(game_id, seat, f"m{step}", legal[0], "r")
        await harness.run_jobs()
    rematch = await players.rematch(ada.player_id, game_id)
    with pytest.raises(RetryLater) as kept:
        await players.join(cy.player_id, rematch.game_id, None)
    assert kept.value.code == "seat.reserved_for_rematch"
    assert 0 < kept.value.retry_after <= 600
    with pytest.raises(RetryLater):
        await commands.join(rematch.game_id, None, "guest")  # a guest waits too
    assert (await players.join(bo.player_id, rematch.game_id, None)).seat == 0
    assert (await players.join(ada.player_id, rematch.game_id, None)).seat == 1


async def test_verify_names_a_player_in_two_seats(
    harness: Harness, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    players = harness.skald.players
    ada = await players.register("Ada")
    game_id = await players_game(harness, ada.player_id, 3)
    await players.join(ada.player_id, game_id, 0)
    assert (await harness.skald.history.verify(game_id)).ok
    # What the racing joins left before a join was one step.
    keys = GameKeys(PREFIX, game_id)
    await fake_redis.hset(keys.seats, "2", player_seat_value(ada.player_id))
    await fake_redis.hset(keys.meta, "n2", "Ada")
    report = await harness.skald.history.verify(game_id)
    assert not report.ok
    records = next(check for check in report.checks if check.name == "records")
    assert records.status == "failed"
    assert f"player {ada.player_id} holds seats 0, 2" in records.detail


async def test_open_games_from_before_the_index_are_found_in_the_lobby(
    harness: Harness, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    players = harness.skald.players
    ada = await players.register("Ada")
    old = await players_game(harness, ada.player_id)
    guests = (await harness.skald.commands.create_game("race", race_config())).game_id
    rooms = OpenRooms(fake_redis, PREFIX)
    await fake_redis.delete(rooms.key)  # as stored before the index
    assert await rooms.backfill() == 1
    assert await rooms.backfill() == 0  # once
    expired = await expire_open_rooms(rooms, harness.skald.store, harness.scheduler, 0, 10)
    assert expired == [old]  # not the guests' game, started at creation
    await harness.run_jobs()
    assert (await harness.skald.reads.turn(old, None)).phase == "cancelled"
    assert (await harness.skald.reads.turn(guests, None)).phase == "started"
