"""The event log, the command inbox and the stored projections on Redis: a game's meta hash,
its event and inbox streams, its commands hash and its views hash (keys: `keys.py`)."""

from __future__ import annotations

import functools
import secrets
from typing import Any, NoReturn

import msgspec

from service.adapters.store.damage import checked_view, contiguous_events, game_absent
from service.adapters.store.redis_base import RedisGames
from service.adapters.store.redis_records import (
    checked_received,
    is_inbox_id,
    stored_event,
    text,
)
from service.adapters.store.script_batch import ScriptBatch
from service.core.ports.command_keys import command_key
from service.core.ports.event_store import GameExists
from service.core.ports.records import (
    NO_INBOX_ID,
    RECORD_DECODER,
    Accepted,
    CommandRecord,
    Duplicate,
    GameMeta,
    Head,
    NewEvent,
    ReceivedCommand,
    StoredEvent,
    SubmitResult,
    Throttled,
)
from service.shared.errors import Conflict, GameDamaged


class RedisEventLog(RedisGames):
    """`EventLog`, `CommandInbox` and `ProjectionReader` on Redis."""

    async def create(
        self,
        game_id: str,
        meta: GameMeta,
        seed: bytes,
        events: list[NewEvent],
        finished: bool,
        views: dict[str, bytes] | None = None,
    ) -> Head:
        """Store a new game with its projections; GameExists if the id is taken (by another
        call: this one's script run again after a lost reply finds its own game)."""
        keys = self.keys(game_id)
        head_hash = events[-1].hash if events else b""
        args: list[Any] = [
            meta.game,
            meta.rules_version,
            meta.seats,
            meta.created_at,
            seed,
            head_hash,
            int(finished),
            len(events),
            secrets.token_hex(8),  # this call's nonce: a retry of it is told its game is made
        ]
        for event in events:
            args += [event.data, event.hash]
        for name, value in (views or {}).items():
            args += [name, value]
        reply = await self.scripts.create(
            keys=[keys.meta, keys.events, keys.secret, keys.views], args=args
        )
        if reply[0] == b"exists":
            raise GameExists(game_id)
        return Head(len(events), head_hash, NO_INBOX_ID, finished)

    async def meta(self, game_id: str) -> GameMeta | None:
        """The game's fixed facts, or None when there is no such game."""
        row: list[Any] = await self.redis.hmget(
            self.keys(game_id).meta, ["game", "rv", "seats", "created"]
        )
        game, rules, seats, created = row
        if game is None:
            return None
        if rules is None or seats is None or created is None or not seats.isdigit():
            raise GameDamaged(game_id, "the meta record lacks the game's fixed facts")
        return GameMeta(text(game), text(rules), int(seats), text(created))

    async def known_meta(self, game_id: str) -> GameMeta:
        """The game's fixed facts; GameMissing, GameQuarantined or GameDamaged without them."""
        meta = await self.meta(game_id)
        if meta is None:
            await self.absent(game_id)
        return meta

    async def absent(self, game_id: str, what: str = "meta record") -> NoReturn:
        """Raise why the game's record is missing (see `game_absent`)."""
        await game_absent(self.redis, self.keys(game_id), game_id, what)

    async def head(self, game_id: str) -> Head | None:
        """Where the stream stands, or None when there is no such game."""
        row: list[Any] = await self.redis.hmget(self.keys(game_id).meta, ["v", "h", "cur", "st"])
        version, chain, cursor, status = row
        if version is None:
            return None
        if not version.isdigit():
            raise GameDamaged(game_id, f"the head's version {text(version)!r} is not a number")
        if cursor is None or not cursor.replace(b"-", b"", 1).isdigit():
            raise GameDamaged(game_id, "the head's inbox cursor is missing or malformed")
        return Head(int(version), chain or b"", text(cursor), status == b"finished")

    async def seed(self, game_id: str) -> bytes | None:
        """The game's secret seed."""
        value: Any = await self.redis.get(self.keys(game_id).secret)
        return None if value is None else bytes(value)

    async def read(
        self, game_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """Events with version > `after`, in order, at most `limit` of them."""
        entries: Any = await self.redis.xrange(
            self.keys(game_id).events, min=f"{after + 1}-0", max="+", count=limit
        )
        return contiguous_events(game_id, after, entries, stored_event)

    async def submit(
        self,
        game_id: str,
        command: ReceivedCommand,
        runner_job_id: str,
        rate_limit: int,
        rate_window_ms: int,
    ) -> SubmitResult:
        """Append to the inbox and mark the game ready; claim a runner slot if one is free."""
        reply = await self._submit(game_id, command, runner_job_id, rate_limit, rate_window_ms)
        if reply[0] == b"bare":
            # A record under the bare id, from before ids were per seat: the seat's own
            # command if the record says so, otherwise the id is free for this seat.
            record = await self._record(game_id, reply[1])
            if record.seat == command.seat:
                reply = [b"duplicate", reply[1]]
            else:
                reply = await self._submit(
                    game_id, command, runner_job_id, rate_limit, rate_window_ms, check_bare=False
                )
        kind = reply[0]
        if kind == b"accepted" and int(reply[2]) == 2:  # on a cluster: now mark it ready
            woken = await self.wake_game(game_id, runner_job_id, True, pending=True)
            return Accepted(text(reply[1]), woken)
        if kind == b"nogame":
            await self.absent(game_id)
        if kind == b"finished":
            raise Conflict("game.finished", f"game {game_id!r} is over: it takes no command")
        if kind == b"throttled":
            return Throttled(max(int(reply[1]), 1))
        if kind == b"accepted":
            return Accepted(text(reply[1]), bool(int(reply[2])))
        record = await self._record(game_id, reply[1])
        if not self.drain_index(game_id).atomic and record.status == "queued":
            # A retry of a submit that may have stopped before its wake: mark the game again
            # (a live runner takes it, else the sweeper wakes it; no slot claimed here).
            await self.wake_game(game_id, runner_job_id, False, pending=True)
        received = await self.received(game_id, record.inbox_id)
        assert received is not None, "a known command is always in the inbox"
        return Duplicate(received, record)

    async def _submit(
        self,
        game_id: str,
        command: ReceivedCommand,
        runner_job_id: str,
        rate_limit: int,
        rate_window_ms: int,
        *,
        check_bare: bool = True,
    ) -> Any:
        keys = self.keys(game_id)
        script_keys = [keys.meta, keys.commands, keys.inbox, keys.rate(command.seat)]
        index = self.drain_index(game_id)
        if index.atomic:  # else the game's slot only, then the wake (drain_shards.py)
            script_keys += [index.ready, index.runners, index.pending]
        args = [
            command.key,
            command.seat,
            command.request_id,
            command.body,
            runner_job_id,
            rate_limit,
            rate_window_ms,
            game_id,
            index.max_runners,
            self.runners.slot_ttl_ms,
            command.command_id,
            int(check_bare),
            "" if command.expected_version is None else command.expected_version,
        ]
        if self.cluster or self.replica_wait.replicas > 0:
            return await self.replica_wait.run(self.redis, self.scripts.submit, script_keys, args)
        # The submits of every seat that sent a command in this turn of the loop: one round
        # trip (script_batch.py).
        return await self._submits.run(self.scripts.submit, script_keys, args)

    @functools.cached_property
    def _submits(self) -> ScriptBatch:
        return ScriptBatch(self.scripts)

    async def _record(self, game_id: str, stored: bytes) -> CommandRecord:
        if not is_inbox_id(stored):
            try:
                return RECORD_DECODER.decode(stored)
            except (msgspec.DecodeError, msgspec.ValidationError):
                raise GameDamaged(game_id, "a command's outcome record does not decode") from None
        inbox_id = stored.decode()
        received = await self.received(game_id, inbox_id)
        seat = received.seat if received is not None else -1
        return CommandRecord("queued", seat, inbox_id)

    async def command(self, game_id: str, seat: int, command_id: str) -> CommandRecord | None:
        """What became of a seat's command, None if the seat never sent that id."""
        row: list[Any] = await self.redis.hmget(
            self.keys(game_id).commands, [command_key(seat, command_id), command_id]
        )
        keyed, bare = row
        if keyed is not None:
            return await self._record(game_id, keyed)
        if bare is None:
            return None
        record = await self._record(game_id, bare)  # written before ids were per seat
        return record if record.seat == seat else None

    async def received(self, game_id: str, inbox_id: str) -> ReceivedCommand | None:
        """The command stored under an inbox id."""
        entries: Any = await self.redis.xrange(self.keys(game_id).inbox, min=inbox_id, max=inbox_id)
        return checked_received(game_id, entries[0]) if entries else None

    async def inbox(self, game_id: str, after: str, limit: int) -> list[ReceivedCommand]:
        """Commands received after inbox id `after`, in the order received."""
        entries: Any = await self.redis.xrange(
            self.keys(game_id).inbox, min=f"({after}", max="+", count=limit
        )
        return [checked_received(game_id, entry) for entry in entries]

    async def names(self, game_id: str, seats: int) -> dict[int, str]:
        """The name each taken seat's player gave (kept in the meta as `n<seat>`)."""
        fields = [f"n{seat}" for seat in range(seats)]
        stored: Any = await self.redis.hmget(self.keys(game_id).meta, fields)
        return {seat: text(name) for seat, name in enumerate(stored) if name is not None}

    async def view(self, game_id: str, name: str) -> tuple[int, bytes] | None:
        """(version, bytes) of one stored projection field, or None; GameDamaged when the
        views are behind the game's head (a views record restored from an older copy)."""
        keys = self.keys(game_id)
        row: list[Any] = await self.scripts.read_view(keys=[keys.views, keys.meta], args=[name])
        version, data, head = row
        if version is None or data is None:
            return None
        if not version.isdigit():
            raise GameDamaged(game_id, "the stored views' version is not a number")
        if head is not None and head.isdigit() and int(head) > int(version):
            raise GameDamaged(
                game_id,
                f"the stored views are at version {int(version)}, behind the game's head at "
                f"version {int(head)}: `skald repair` rebuilds them from the events",
                int(version) + 1,
            )
        return int(version), checked_view(game_id, name, int(version), data)
