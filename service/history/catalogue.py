"""Every game a Redis holds, found by its meta key (the store has no index of all games)."""

from __future__ import annotations

import re

from redis.asyncio import Redis

from service.store.keys import GameKeys, is_game_id

SCAN_BATCH = 1000
_GLOB_SPECIALS = re.compile(r"([*?\[\]\\])")


def _glob_escape(text: str) -> str:
    return _GLOB_SPECIALS.sub(r"\\\1", text)


async def stored_game_ids(redis: Redis, prefix: str) -> list[str]:
    """The ids of every game under `prefix`, sorted (SCAN: no blocking of the server)."""
    base = GameKeys(prefix, "ID").meta
    before, after = base.split("{ID}", 1)
    pattern = f"{_glob_escape(before)}{{*}}{_glob_escape(after)}"
    ids = set()
    async for key in redis.scan_iter(match=pattern, count=SCAN_BATCH):
        text = key.decode() if isinstance(key, bytes) else key
        game_id = text[len(before) + 1 : len(text) - len(after) - 1]
        if is_game_id(game_id):
            ids.add(game_id)
    return sorted(ids)
