"""Every game a Redis holds, found by any of its keys (the store has no index of all games).

Any key family counts, not only the meta: a game whose meta was lost (or set aside by a
quarantine) is still listed, so that `skald verify` reports it instead of never seeing it.
"""

from __future__ import annotations

from redis.asyncio import Redis

from service.adapters.store.keys import game_id_of_key, game_key_pattern

SCAN_BATCH = 1000


async def stored_game_ids(redis: Redis, prefix: str) -> list[str]:
    """The ids of every game under `prefix`, sorted (SCAN: no blocking of the server)."""
    ids = set()
    async for key in redis.scan_iter(match=game_key_pattern(prefix), count=SCAN_BATCH):
        text = key.decode() if isinstance(key, bytes) else key
        game_id = game_id_of_key(prefix, text)
        if game_id is not None:
            ids.add(game_id)
    return sorted(ids)
