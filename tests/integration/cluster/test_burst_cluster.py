"""A burst of requests on a Redis Cluster with every node up: no 503, and every game created
is answered to the request that created it.

The API's facade (`bootstrap.connect`, as `skald serve` builds it: the cluster client of the
composition root, `SKALD_WAIT_REPLICAS=1`) on a cluster of 3 masters and 3 replicas of its own,
fresh: no script loaded, the client's slot map not loaded yet. Hundreds of games are created
at once, then a seat of each is taken at once, every call reaching Redis together (over HTTP
the API's own parsing spreads a burst out; in process nothing does).

Before: redis-py's cluster client kept 100 connections per node and failed a call past them
at once (a 503 with an empty message); and calls sent before its slot map was loaded went to
one node, were redirected (MOVED), and every fifth redirection closed every connection, calls
in flight included: a create script run again by its retry found the game it had just made
and answered 409 `game.exists`.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Iterator
from typing import TypeVar

import msgspec
import pytest

from service import bootstrap
from service.adapters.notifications import Publisher
from service.adapters.store.keys import GameKeys
from service.facade.skald import Skald
from service.shared.errors import ServiceError
from service.shared.settings import Settings
from tests.cluster.local_cluster import LocalCluster
from tests.fakes.race import race_config
from tests.integration.conftest import PLUGINS, REDIS_URL, clean_up

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

T = TypeVar("T")


@pytest.fixture
def burst_settings(fresh_cluster: LocalCluster) -> Iterator[Settings]:
    run = uuid.uuid4().hex[:10]
    settings = Settings(
        redis_url=fresh_cluster.url,
        redis_cluster=True,
        queue_url=REDIS_URL,  # RQ on its own Redis: the shared test server
        key_prefix=f"it-burst-{run}:",
        queue_name=f"it-burst-{run}",
        plugins=PLUGINS,
        wait_replicas=1,
        archive_after_s=-1,
    )
    yield settings
    clean_up(msgspec.structs.replace(settings, redis_url=REDIS_URL))


@pytest.fixture
async def skald(burst_settings: Settings) -> AsyncIterator[Skald]:
    facade = await bootstrap.connect(burst_settings)
    yield facade
    await facade.close()


async def _all_at_once(calls: list[Awaitable[T]]) -> tuple[list[T], Counter[str]]:
    """The results of the calls that succeeded, and what the others raised: a service error's
    code (`redis.unavailable` is the API's 503), else the exception's type (`GameExists`,
    the API's 409 `game.exists`)."""

    async def one(call: Awaitable[T]) -> T | Exception:
        try:
            return await call
        except Exception as exc:
            return exc

    outcomes = await asyncio.gather(*(one(call) for call in calls))
    errors = Counter(
        o.code if isinstance(o, ServiceError) else type(o).__name__
        for o in outcomes
        if isinstance(o, Exception)
    )
    return [o for o in outcomes if not isinstance(o, Exception)], errors


# Longer than redis-py's socket timeout (5 s), the longest an idle connection is given.
IDLE_S = 6.0
BURSTS = [pytest.param(400, id="400"), pytest.param(1600, id="1600", marks=pytest.mark.slow)]


async def _stored_games(settings: Settings) -> set[str]:
    """The meta keys of every game under the test's prefix in the cluster."""
    client = bootstrap.event_client(settings)
    try:
        return {
            key.decode()
            async for key in client.scan_iter(match=f"{settings.key_prefix}*", count=1000)
            if key.endswith(b":meta")
        }
    finally:
        await client.aclose()


@pytest.mark.parametrize("requests", BURSTS)
async def test_a_burst_of_creations_answers_each_its_own_game(
    skald: Skald, burst_settings: Settings, requests: int
) -> None:
    # When that many games are created at once on a fresh cluster
    created, errors = await _all_at_once(
        [skald.commands.create_game("race", race_config(2, 12)) for _ in range(requests)]
    )

    # Then every call got its own new game (no 503, no 409 for its own game)
    assert not errors, errors
    game_ids = [game.game_id for game in created]
    assert len(set(game_ids)) == requests
    # And the cluster holds those games and no other (none orphaned)
    expected = {GameKeys(burst_settings.key_prefix, g).meta for g in game_ids}
    assert await _stored_games(burst_settings) == expected


@pytest.mark.parametrize("requests", BURSTS)
async def test_a_burst_of_joins_gives_every_seat(skald: Skald, requests: int) -> None:
    # (the first game alone: the client loads its slot map and the masters the script)
    game_ids = [(await skald.commands.create_game("race", race_config(2, 12))).game_id]
    for _ in range(0, requests, 50):  # the others fifty at a time
        batch = [skald.commands.create_game("race", race_config(2, 12)) for _ in range(50)]
        game_ids += [game.game_id for game in await asyncio.gather(*batch)]
    game_ids = game_ids[:requests]

    # When a seat of each is taken at once
    joined, errors = await _all_at_once(
        [skald.commands.join(game_id, None, f"p{n}") for n, game_id in enumerate(game_ids)]
    )

    # Then every seat was given, to the call that took it (no 503)
    assert not errors, errors
    assert [(seat.game_id, seat.seat) for seat in joined] == [(g, 0) for g in game_ids]


async def test_the_listener_stays_connected_through_a_burst_and_idle_time(
    skald: Skald, burst_settings: Settings, log_output: io.StringIO
) -> None:
    # Given a listener on a game of every drain shard (so of every master)
    watched = [
        (await skald.commands.create_game("race", race_config(2, 12))).game_id
        for _ in range(burst_settings.drain_shards)
    ]
    async with contextlib.AsyncExitStack() as listening:
        queues = [await listening.enter_async_context(skald.notifier.listen(g)) for g in watched]

        # When a burst of creations and joins runs on the same client, then nothing for a while
        # (what the burst was answered is the tests above's)
        created, _ = await _all_at_once(
            [skald.commands.create_game("race", race_config(2, 12)) for _ in range(400)]
        )
        await _all_at_once([skald.commands.join(game.game_id, None, "p") for game in created])
        await asyncio.sleep(IDLE_S)

        # Then each game's next version reaches its listener as published: nothing was missed
        # (a lost connection would have handed every listener a RECHECK first)
        publisher = Publisher(skald.redis, burst_settings.key_prefix)
        for game_id, queue in zip(watched, queues, strict=True):
            await publisher.publish(game_id, 7)
            assert (await queue.get()).version == 7

    # And the notifier never lost its connections
    assert "notifier_disconnected" not in log_output.getvalue()
