"""The per-address counters on a real Redis: concurrent requests each get their own count
(none slips past a limit), and every counter expires with its window."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis as AsyncRedis

from service.adapters.address_limits import AddressCounters
from service.shared.settings import Settings

pytestmark = [pytest.mark.anyio, pytest.mark.redis]
WINDOW_MS = 60_000
HITS = 40  # at once, each on a connection of its own


async def test_concurrent_hits_count_one_each_and_the_window_expires(
    core_settings: Settings, event_client: AsyncRedis
) -> None:
    counters = AddressCounters(event_client, core_settings.key_prefix)
    hits = await asyncio.gather(
        *(counters.hit("players", "192.0.2.1", WINDOW_MS) for _ in range(HITS))
    )
    assert sorted(count for count, _ in hits) == list(range(1, HITS + 1))
    assert all(0 < left <= WINDOW_MS for _, left in hits)
    assert 0 < await event_client.pttl(counters.key("players", "192.0.2.1")) <= WINDOW_MS
    assert (await counters.hit("players", "192.0.2.2", WINDOW_MS))[0] == 1
    assert (await counters.hit("games", "192.0.2.1", WINDOW_MS))[0] == 1


async def test_a_counter_left_without_an_expiry_gets_one(
    core_settings: Settings, event_client: AsyncRedis
) -> None:
    counters = AddressCounters(event_client, core_settings.key_prefix)
    await event_client.set(counters.key("players", "192.0.2.3"), 5)  # no expiry
    count, left = await counters.hit("players", "192.0.2.3", WINDOW_MS)
    assert (count, 0 < left <= WINDOW_MS) == (6, True)
    assert await event_client.pttl(counters.key("players", "192.0.2.3")) > 0
