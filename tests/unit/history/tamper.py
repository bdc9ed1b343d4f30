"""Editing what Redis holds of a game, as an intruder (or a bug) would, for detection tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from redis.asyncio import Redis

from service.adapters.store.keys import GameKeys
from service.core.pipeline.chain import genesis, link

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


async def delete_keys(redis: Redis, prefix: str, game_id: str, *families: str) -> None:
    """Delete whole key families of a game (`meta`, `secret`, `seats`, `events`, ...)."""
    keys = GameKeys(prefix, game_id)
    await redis.delete(*(getattr(keys, family) for family in families))


async def delete_event(redis: Redis, prefix: str, game_id: str, version: int) -> None:
    """Delete one event from the stream, leaving a gap."""
    await redis.xdel(GameKeys(prefix, game_id).events, f"{version}-1")


async def overwrite_view(redis: Redis, prefix: str, game_id: str, field: str, data: bytes) -> None:
    """Overwrite one stored projection (`json:0`, `turn:p`, ...) with other bytes."""
    await redis.hset(GameKeys(prefix, game_id).views, field, data)


async def garble_records(redis: Redis, prefix: str, game_id: str) -> None:
    """Replace every decided command's outcome record with bytes that do not decode."""
    keys = GameKeys(prefix, game_id)
    records = await redis.hgetall(keys.commands)
    for command_id, record in records.items():
        if not record[:1].isdigit():  # a queued command's record is its inbox id
            await redis.hset(keys.commands, command_id, b"\xc1garbled")


async def strip_inbox_entry(redis: Redis, prefix: str, game_id: str) -> str:
    """Rewrite the game's first inbox entry without its seat field; returns its id."""
    keys = GameKeys(prefix, game_id)
    entries = await redis.xrange(keys.inbox)
    first_id, first = entries[0]
    stripped = {name: value for name, value in first.items() if name != b"s"}
    async with redis.pipeline(transaction=True) as pipe:
        pipe.delete(keys.inbox)  # a stream's entries cannot be edited: write it again
        for entry_id, fields in [(first_id, stripped), *entries[1:]]:
            pipe.xadd(keys.inbox, fields, id=entry_id)
        await pipe.execute()
    return str(first_id.decode())


async def strand_command(redis: Redis, prefix: str, game_id: str, body: bytes) -> str:
    """Queue a command received long ago (inbox id at 1 s past the epoch) as if the signal
    that wakes a worker had been lost: no ready mark, no pending mark, no lease. The game's
    inbox must be empty (ids only grow)."""
    keys = GameKeys(prefix, game_id)
    fields = {"s": 0, "c": "stranded", "r": "r-stranded", "b": body}
    inbox_id = await redis.xadd(keys.inbox, fields, id="1000-0")
    await redis.hset(keys.commands, "stranded", inbox_id)
    return str(inbox_id.decode())


async def strip_event_field(
    redis: Redis, prefix: str, game_id: str, version: int, field: bytes
) -> None:
    """Rewrite the game's stream with one field dropped from the event at `version`."""
    keys = GameKeys(prefix, game_id)
    entries = await redis.xrange(keys.events)
    async with redis.pipeline(transaction=True) as pipe:
        pipe.delete(keys.events)  # a stream's entries cannot be edited: write it again
        for entry_id, fields in entries:
            if int(entry_id.split(b"-", 1)[0]) == version:
                fields = {name: value for name, value in fields.items() if name != field}
            pipe.xadd(keys.events, fields, id=entry_id)
        await pipe.execute()
