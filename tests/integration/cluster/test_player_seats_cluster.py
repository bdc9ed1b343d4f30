"""A player's seats on one Redis (one script) and on a Redis Cluster (the player's keys in
another slot: counted, then seated, the count given back on a refusal): simultaneous joins
hold one seat, the active limit holds, a refused join and a seat given back leave the index."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from service.adapters.store.keys import GameKeys, player_key
from service.adapters.store.player_seats import PlayerSeats
from service.adapters.store.scripts import Scripts
from service.core.ports.seats import SeatsFull
from service.shared.errors import Conflict, Forbidden

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

LIMIT = 3


@pytest.fixture
async def seats(either_redis: Redis) -> AsyncIterator[PlayerSeats]:
    prefix = f"it-pseats-{uuid.uuid4().hex[:8]}:"
    yield PlayerSeats(either_redis, prefix, Scripts(either_redis))
    async for key in either_redis.scan_iter(match=f"{prefix}*", count=1000):
        await either_redis.delete(key)


async def open_game(seats: PlayerSeats, players: int = 4) -> str:
    """The keys a join reads of a game a player created, waiting for its players."""
    game_id = uuid.uuid4().hex[:12]
    keys = GameKeys(seats.prefix, game_id)
    await seats.redis.hset(keys.meta, mapping={"seats": players, "st": "open"})
    await seats.redis.set(keys.base + "creator", "host")
    return game_id


async def new_player(seats: PlayerSeats) -> str:
    player_id = uuid.uuid4().hex[:10]
    await seats.redis.sadd(player_key(seats.prefix, player_id) + ":active", "*")  # indexed
    return player_id


async def test_simultaneous_joins_of_one_player_hold_one_seat(seats: PlayerSeats) -> None:
    player = await new_player(seats)
    for _ in range(5):
        game_id = await open_game(seats)
        taken = await asyncio.gather(
            *(seats.take(game_id, None, player, "Ada", LIMIT, 1) for _ in range(4))
        )
        assert {seat for seat, *_ in taken} == {0}
        assert sum(1 for *_, held in taken if not held) == 1
        stored = await seats.redis.hgetall(GameKeys(seats.prefix, game_id).seats)
        assert stored == {b"0": f"p:{player}".encode()}
        await seats.leave(game_id, player)


async def test_the_active_limit_holds_under_simultaneous_joins(seats: PlayerSeats) -> None:
    player = await new_player(seats)
    await seats.take(await open_game(seats), None, player, "Ada", LIMIT, 1)
    games = [await open_game(seats) for _ in range(8)]
    results = await asyncio.gather(
        *(seats.take(game_id, None, player, "Ada", LIMIT, 1) for game_id in games),
        return_exceptions=True,
    )
    assert sum(1 for result in results if isinstance(result, tuple)) == LIMIT - 1
    assert len(await seats.active(player)) == LIMIT


async def test_a_refused_join_and_a_seat_given_back_leave_the_index(seats: PlayerSeats) -> None:
    ada, bo = await new_player(seats), await new_player(seats)
    full = await open_game(seats, players=1)
    await seats.take(full, None, ada, "Ada", LIMIT, 1)
    with pytest.raises(SeatsFull):
        await seats.take(full, None, bo, "Bo", LIMIT, 1)
    game_id = await open_game(seats, players=2)
    await seats.take(game_id, 0, ada, "Ada", LIMIT, 1)
    with pytest.raises(Conflict):
        await seats.take(game_id, 0, bo, "Bo", LIMIT, 1)  # seat.taken
    assert await seats.active(bo) == []
    with pytest.raises(Conflict):
        await seats.leave(full, ada)  # every seat held: it is starting
    assert await seats.leave(game_id, ada) == 0
    assert await seats.active(ada) == [full]
    with pytest.raises(Forbidden):
        await seats.leave(game_id, ada)  # no seat any more: player.no_seat
    assert (await seats.take(game_id, None, bo, "Bo", LIMIT, 1))[0] == 0
