"""A player's token changed ends the sessions it opened, on one Redis and on a real Redis
Cluster (the announcement a sharded message in the player's slot)."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from redis.asyncio import Redis

from service.adapters.notifications import Notifier
from service.adapters.store.players import Players
from service.facade.checks import token_hash
from service.facade.token_sessions import TokenSession, TokenSessions

pytestmark = pytest.mark.anyio
ENDED_WITHIN_S = 10.0  # generous: the message arrives at once


async def test_rotating_and_revoking_end_the_sessions_of_the_old_token(
    either_redis: Redis,
) -> None:
    prefix = f"test-{uuid.uuid4().hex[:8]}:"
    players = Players(either_redis, prefix)
    notifier = Notifier(either_redis, prefix)
    sessions = TokenSessions(players, notifier)
    first, second = token_hash("skp_first"), token_hash("skp_second")
    await players.create("ada", "Ada", first, 0)
    try:
        async with sessions.watch(TokenSession("ada", first)) as ended:
            assert not ended.is_set()
            await players.replace_token("ada", first, second)
            await asyncio.wait_for(ended.wait(), ENDED_WITHIN_S)
        async with sessions.watch(TokenSession("ada", second)) as ended:
            async with sessions.watch(TokenSession("ada", first)) as stale:
                assert stale.is_set()  # its token had changed before the watch began
            assert not ended.is_set()
            await players.replace_token("ada", second, None)
            await asyncio.wait_for(ended.wait(), ENDED_WITHIN_S)
    finally:
        await notifier.close()
        keys = [key async for key in either_redis.scan_iter(match=f"{prefix}*")]
        for key in keys:
            await either_redis.delete(key)
