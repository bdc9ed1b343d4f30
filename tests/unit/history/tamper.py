"""Editing what Redis holds of a game, as an intruder (or a bug) would, for detection tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from redis.asyncio import Redis

from service.pipeline.chain import genesis, link
from service.store.keys import GameKeys

Edit = Callable[[dict[str, Any]], dict[str, Any]]


async def stored_event(redis: Redis, prefix: str, game_id: str, version: int) -> dict[str, Any]:
    """The event at `version` as plain data."""
    entries = await redis.xrange(GameKeys(prefix, game_id).events, f"{version}-1", f"{version}-1")
    event: dict[str, Any] = msgspec.msgpack.decode(entries[0][1][b"e"])
    return event


async def edit_events(
    redis: Redis,
    prefix: str,
    game_id: str,
    edits: dict[int, Edit],
    *,
    rechain: bool,
    unlink: frozenset[int] = frozenset(),
) -> None:
    """Rewrite events in place; `unlink` names versions whose command id is dropped. With
    `rechain`, every chain value (and the head's) is recomputed so the chain holds; without,
    the edited events keep their old chain values."""
    keys = GameKeys(prefix, game_id)
    entries = await redis.xrange(keys.events)
    chain = genesis(game_id)
    rows = []
    for entry_id, fields in entries:
        version = int(entry_id.split(b"-", 1)[0])
        data = fields[b"e"]
        if version in edits:
            data = msgspec.msgpack.encode(edits[version](msgspec.msgpack.decode(data)))
        chain = link(chain, data)
        edited = {**fields, b"e": data, b"h": chain if rechain else fields[b"h"]}
        if version in unlink:
            edited.pop(b"c", None)
        rows.append((entry_id, edited))
    async with redis.pipeline(transaction=True) as pipe:
        pipe.delete(keys.events)
        for entry_id, fields in rows:
            pipe.xadd(keys.events, fields, id=entry_id)
        if rechain:
            pipe.hset(keys.meta, "h", chain)
        await pipe.execute()


async def versions_of(redis: Redis, prefix: str, game_id: str, event_type: str) -> list[int]:
    """The versions of every event of a type."""
    entries = await redis.xrange(GameKeys(prefix, game_id).events)
    return [
        int(entry_id.split(b"-", 1)[0])
        for entry_id, fields in entries
        if msgspec.msgpack.decode(fields[b"e"]).get("type") == event_type
    ]
