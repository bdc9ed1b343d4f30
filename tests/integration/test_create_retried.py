"""A game's creation, or a guest's join, run again after its reply was lost answers the game
it made, or the seat it took.

redis-py retries a call whose connection broke after the command was sent (on a cluster, a
topology refresh under load closes connections in use): the create script then runs twice.
The client here runs every script twice and keeps the second reply, as such a retry does; on
fakeredis and on the real Redis.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import fakeredis
import pytest
from redis.asyncio import Redis

from service.adapters.store.redis_store import RedisEventStore
from service.adapters.store.scripts import Scripts
from service.adapters.store.side import Seats
from service.core.ports.event_store import GameExists
from service.shared.settings import Settings
from tests.unit.adapters.store_contract import GAME, META, SEED, chained

pytestmark = pytest.mark.anyio


class RepliesLost:
    """A client whose every script call runs twice, the first reply lost on the way."""

    async def execute_command(self, *args: Any, **options: Any) -> Any:
        if args[0] == "EVALSHA":
            await super().execute_command(*args, **options)  # type: ignore[misc]
        return await super().execute_command(*args, **options)  # type: ignore[misc]


class FakeRedisRepliesLost(RepliesLost, fakeredis.aioredis.FakeRedis):
    pass


class RedisRepliesLost(RepliesLost, Redis):
    pass


@pytest.fixture(params=["fakeredis", pytest.param("redis", marks=pytest.mark.redis)])
async def retried(request: pytest.FixtureRequest) -> AsyncIterator[RedisEventStore]:
    """A store whose scripts each run twice: on fakeredis, then on the real Redis."""
    if request.param == "fakeredis":
        client: Redis = FakeRedisRepliesLost(server=fakeredis.FakeServer())
        prefix = "t:"
    else:
        settings: Settings = request.getfixturevalue("core_settings")
        client = RedisRepliesLost.from_url(settings.redis_url)
        prefix = settings.key_prefix
    yield RedisEventStore(client, prefix=prefix)
    await client.aclose()


async def test_a_create_run_twice_answers_the_game_it_made(retried: RedisEventStore) -> None:
    opening = chained(GAME, [b"setup-0", b"setup-1"])

    # When the create script runs twice for one call (its first reply lost)
    head = await retried.create(GAME, META, SEED, opening, False)

    # Then the call is answered with its game, stored once
    assert (head.version, head.hash) == (2, opening[-1].hash)
    assert [event.data for event in await retried.read(GAME)] == [b"setup-0", b"setup-1"]
    assert await retried.meta(GAME) == META
    assert await retried.seed(GAME) == SEED


async def test_another_create_of_the_same_id_is_still_refused(retried: RedisEventStore) -> None:
    opening = chained(GAME, [b"setup-0"])
    await retried.create(GAME, META, SEED, opening, False)

    # When another call creates a game under the same id
    with pytest.raises(GameExists):
        await retried.create(GAME, META, b"\x01" * 32, chained(GAME, [b"other"]), True)

    # Then the first game is left as it was
    assert [event.data for event in await retried.read(GAME)] == [b"setup-0"]
    assert await retried.seed(GAME) == SEED


async def test_a_guests_join_run_twice_answers_the_seat_it_took(retried: RedisEventStore) -> None:
    # Given a game with two free seats
    await retried.create(GAME, META, SEED, chained(GAME, [b"setup-0"]), False)
    seats = Seats(retried.redis, retried.prefix, Scripts(retried.redis))

    # When a guest's join script runs twice for one call (its first reply lost)
    taken = await seats.take(GAME, None, b"\x07" * 32, "Ada")

    # Then the call is answered with the one seat it took, and the other is still free
    assert taken[0] == 0 and taken[1] == 1
    assert await seats.token_hashes(GAME) == {0: b"\x07" * 32}
    assert (await seats.take(GAME, None, b"\x08" * 32, "Bo"))[0] == 1
