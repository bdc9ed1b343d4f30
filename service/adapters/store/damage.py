"""The store's read-side checks: damage is named (GameDamaged) as it is read, never served.

Cheap enough for every read: event versions are checked to run on while the stream is read,
and a stored view is decoded only as far as its leading game id and version (msgspec still
checks the whole document is well formed while skipping the rest: a few µs a KB).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

import msgspec
from redis.asyncio import Redis

from service.adapters.store.keys import GameKeys
from service.core.ports.event_store import GameMissing
from service.core.ports.records import StoredEvent
from service.shared.errors import GameDamaged, GameQuarantined


class _Stamp(msgspec.Struct):
    # The fields every stored view and turn begins with. Decoding a projection as this
    # checks the whole document is well formed (a few µs a KB) without building it.
    game_id: str
    version: int


_STAMP_DECODERS: dict[str, Any] = {
    "json": msgspec.json.Decoder(_Stamp),
    "msgpack": msgspec.msgpack.Decoder(_Stamp),
    "turn": msgspec.msgpack.Decoder(_Stamp),
}


def checked_view(game_id: str, name: str, version: int, data: bytes) -> bytes:
    """A stored projection's bytes once they decode, name this game and carry the views'
    version; GameDamaged naming the projection otherwise."""
    decoder = _STAMP_DECODERS.get(name.split(":", 1)[0])
    if decoder is None:
        return data
    try:
        stamp = decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError):
        raise GameDamaged(game_id, f"the stored view {name!r} does not decode") from None
    if stamp.game_id != game_id or stamp.version != version:
        raise GameDamaged(
            game_id,
            f"the stored view {name!r} is of game {stamp.game_id!r} at version "
            f"{stamp.version}, the views say {game_id!r} at version {version}",
        )
    return data


def contiguous_events(
    game_id: str,
    after: int,
    entries: list[tuple[bytes, dict[bytes, bytes]]],
    to_event: Callable[[bytes, dict[bytes, bytes]], StoredEvent],
) -> list[StoredEvent]:
    """Stream entries as events, GameDamaged when one is missing or malformed: versions run
    on from `after` without a gap, so a lost event is never served as a silent hole."""
    events = []
    expected = after + 1
    for entry_id, fields in entries:
        version = int(entry_id.split(b"-", 1)[0])
        if version != expected:
            raise GameDamaged(game_id, f"event {expected} is missing from the stream", expected)
        try:
            events.append(to_event(entry_id, fields))
        except KeyError as exc:
            lost = {b"e": "data", b"h": "chain value"}.get(exc.args[0], "fields")
            raise GameDamaged(game_id, f"event {version} lacks its {lost}", version) from None
        expected += 1
    return events


async def game_absent(redis: Redis, keys: GameKeys, game_id: str, what: str) -> NoReturn:
    """Raise why a game's record is missing: a quarantine (GameQuarantined), damage
    (GameDamaged, when other keys of the game remain), or no such game (GameMissing).
    Costs one round trip, paid only by a read that already missed."""
    async with redis.pipeline(transaction=False) as pipe:
        pipe.get(keys.quarantine)
        pipe.exists(keys.meta, keys.events, keys.secret, keys.seats, keys.views, keys.inbox)
        reason, remaining = await pipe.execute()
    if reason is not None:
        raise GameQuarantined(game_id, reason.decode() if isinstance(reason, bytes) else reason)
    if remaining:
        raise GameDamaged(game_id, f"the game's {what} is missing")
    raise GameMissing(game_id)
