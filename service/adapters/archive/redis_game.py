"""A finished game's keys on Redis: read whole for its archive record, and deleted after.

The read is one MULTI/EXEC, so the record is one consistent snapshot; the delete is a script
that deletes only when the game is still the snapshot archived (lua/drop_archived.lua).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from redis.asyncio import Redis

from service.adapters.store.keys import GameKeys, game_id_of_key, game_key_pattern
from service.core.ports.archive import finished_at_ms
from service.core.ports.archive_record import (
    RECORD_FORMAT,
    ArchivedCommand,
    ArchivedEvent,
    ArchivedGame,
    applied_outcomes,
)
from service.shared.errors import GameDamaged

SCAN_BATCH = 1000


@cache
def _drop_source() -> str:
    return resources.files("service.adapters.archive").joinpath("lua/drop_archived.lua").read_text()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class HotGames:
    """Games' keys under `prefix` on `redis`, as the archiver reads and drops them."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self._drop: Any = redis.register_script(_drop_source())

    def keys(self, game_id: str) -> GameKeys:
        """The keys of one game."""
        return GameKeys(self.prefix, game_id)

    async def finished_games(self) -> dict[str, int]:
        """The games whose meta says they are over (a SCAN over meta keys), each with when it
        finished by `finished_at_ms`."""
        pattern = game_key_pattern(self.prefix)[: -len("*")] + "meta"
        ids: list[str] = []
        async for key in self.redis.scan_iter(match=pattern, count=SCAN_BATCH):
            game_id = game_id_of_key(self.prefix, _text(key))
            if game_id is not None:
                ids.append(game_id)
        if not ids:
            return {}
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id in ids:
                pipe.hmget(self.keys(game_id).meta, ["st", "cur", "created"])
            rows = await pipe.execute()
        finished = {}
        for game_id, (status, cursor, created) in zip(ids, rows, strict=True):
            if status == b"finished":
                finished[game_id] = finished_at_ms(_text(cursor or b""), _text(created or b""))
        return dict(sorted(finished.items()))

    async def snapshot(self, game_id: str) -> tuple[ArchivedGame, list[bytes]] | None:
        """The game as an archive record, and each event's stored chain value; None when it
        has no meta (never was, archived already, or quarantined)."""
        keys = self.keys(game_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hgetall(keys.meta)
            pipe.xrange(keys.events)
            pipe.xrange(keys.inbox)
            pipe.hgetall(keys.commands)
            pipe.get(keys.secret)
            pipe.hgetall(keys.seats)
            meta, events, inbox, outcomes, seed, seats = await pipe.execute()
        if not meta:
            return None
        try:
            archived_events = [_event(fields) for _, fields in events]
            archived_inbox = [_command(entry_id, fields) for entry_id, fields in inbox]
            derived = applied_outcomes(archived_events, archived_inbox)
            archived = ArchivedGame(
                format=RECORD_FORMAT,
                game_id=game_id,
                meta={_text(name): value for name, value in meta.items()},
                events=archived_events,
                inbox=archived_inbox,
                outcomes={
                    _text(name): value
                    for name, value in outcomes.items()
                    if derived.get(_text(name)) != value
                },
                seed=seed or b"",
                seats={_text(name): value for name, value in seats.items()},
            )
        except (KeyError, ValueError, UnicodeDecodeError) as exc:
            raise GameDamaged(game_id, f"a stream entry is malformed: {exc!r}") from None
        hashes = [fields.get(b"h", b"") for _, fields in events]
        return archived, hashes

    async def drop(self, archived: ArchivedGame) -> bool:
        """Delete the game's keys if it is still as archived; True when deleted."""
        keys = self.keys(archived.game_id)
        deleted = await self._drop(
            keys=[
                keys.meta,
                keys.inbox,
                keys.events,
                keys.commands,
                keys.secret,
                keys.seats,
                keys.views,
                keys.lease,
                keys.fence,
                keys.base + "notified",  # the notification projector's cursor
            ],
            args=[archived.version, archived.last_inbox_id],
        )
        return bool(deleted)

    async def claim_run(self, owner: str, ttl_ms: int) -> bool:
        """Claim the next scheduled run for `owner` (one archiver per interval among every
        worker); False when another claimed it less than `ttl_ms` ago."""
        return bool(await self.redis.set(f"{self.prefix}archiver", owner, nx=True, px=ttl_ms))

    async def now_ms(self) -> int:
        """The Redis clock, in ms."""
        now: Any = await self.redis.time()
        return int(now[0]) * 1000 + int(now[1]) // 1000


def _event(fields: dict[bytes, bytes]) -> ArchivedEvent:
    command = fields.get(b"c")
    return ArchivedEvent(fields[b"e"], command.decode() if command else None)


def _command(entry_id: bytes, fields: dict[bytes, bytes]) -> ArchivedCommand:
    return ArchivedCommand(
        inbox_id=entry_id.decode(),
        seat=int(fields[b"s"]),
        command_id=fields[b"c"].decode(),
        request_id=fields[b"r"].decode(),
        body=fields[b"b"],
        expected_version=int(fields[b"x"]) if b"x" in fields else None,
    )
