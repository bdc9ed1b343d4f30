"""The EventStore on Redis: Streams for events and the inbox, Lua for every atomic step.

The client must be created with `decode_responses=False`: events and chain values are bytes.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, NoReturn

import msgspec
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from service.adapters.store.damage import checked_view, contiguous_events, game_absent
from service.adapters.store.keys import GameKeys, pending_key, ready_key, runners_key
from service.adapters.store.ports import (
    AlreadyDecided,
    CommitFailed,
    CommitOutcome,
    GameExists,
    GameMissing,
    LeaseLost,
    VersionConflict,
)
from service.adapters.store.records import (
    NO_INBOX_ID,
    RECORD_DECODER,
    RECORD_ENCODER,
    Accepted,
    Batch,
    CommandRecord,
    Committed,
    Duplicate,
    GameMeta,
    Head,
    NewEvent,
    ReceivedCommand,
    RunnerLimits,
    StoredEvent,
    SubmitResult,
    Throttled,
    Turn,
    TurnRequest,
)
from service.adapters.store.scripts import ScriptCall, Scripts
from service.shared.errors import GameDamaged


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _is_inbox_id(value: bytes) -> bool:
    # A queued command's record is its inbox id; a decided one is a msgpack array.
    return bool(value) and value[:1].isdigit()


def _stored_event(entry_id: bytes, fields: dict[bytes, bytes]) -> StoredEvent:
    command = fields.get(b"c")
    return StoredEvent(
        version=int(entry_id.split(b"-", 1)[0]),
        data=fields[b"e"],
        hash=fields[b"h"],
        command_id=command.decode() if command is not None else None,
    )


def _fields(flat: list[bytes]) -> dict[bytes, bytes]:
    # A stream entry's fields as a Lua script returns them: [name, value, name, value, ...].
    return dict(zip(flat[::2], flat[1::2], strict=True))


def _received(entry_id: bytes, fields: dict[bytes, bytes]) -> ReceivedCommand:
    return ReceivedCommand(
        seat=int(fields[b"s"]),
        command_id=fields[b"c"].decode(),
        request_id=fields[b"r"].decode(),
        body=fields[b"b"],
        inbox_id=entry_id.decode(),
    )


def _checked_received(game_id: str, entry: tuple[bytes, dict[bytes, bytes]]) -> ReceivedCommand:
    """An inbox entry as a command; GameDamaged naming it when a field is lost or garbled."""
    try:
        return _received(*entry)
    except (KeyError, ValueError, UnicodeDecodeError):
        raise GameDamaged(game_id, f"inbox entry {_text(entry[0])} is malformed") from None


def _popped(reply: Any) -> list[str]:
    """The game ids of a BZMPOP reply (None when it timed out)."""
    return [] if reply is None else [_text(member) for member, _ in reply[1]]


def _turn(reply: list[Any]) -> Turn | None:
    """An opened turn from the open_turn script's reply; None when held or missing."""
    if reply[0] != b"ok":
        return None
    _, token, version, chain, cursor, status, commands, events, facts = reply
    head = Head(int(version), chain or b"", _text(cursor), status == b"finished")
    meta = seed = None
    if facts:
        game, rules, seats, created, seed = facts
        meta = GameMeta(_text(game), _text(rules), int(seats), _text(created))
    return Turn(
        lease=int(token),
        head=head,
        commands=[_received(entry_id, _fields(flat)) for entry_id, flat in commands],
        events=[_stored_event(entry_id, _fields(flat)) for entry_id, flat in events],
        meta=meta,
        seed=seed,
    )


# BZMPOP (idle runners wait on the ready set) came with Redis 7.0.
MIN_REDIS_VERSION = (7, 0)


def redis_version_problem(server_info: dict[str, Any]) -> str | None:
    """Why this Redis (its `INFO server` reply) cannot serve Skald, or None when it can."""
    reported = str(server_info.get("redis_version", ""))
    try:
        version = tuple(int(part) for part in reported.split(".")[:2])
    except ValueError:
        return f"cannot tell the Redis version from {reported!r}"
    if version < MIN_REDIS_VERSION:
        wanted = ".".join(map(str, MIN_REDIS_VERSION))
        return f"Redis {reported} is too old: Skald needs Redis {wanted} or later (BZMPOP)"
    return None


class RedisEventStore:
    """Games on one Redis server (or cluster slot per game), keys under `prefix`."""

    def __init__(
        self,
        redis: Redis,
        prefix: str = "",
        scripts: Scripts | None = None,
        runners: RunnerLimits | None = None,
    ) -> None:
        self.redis = redis
        self.prefix = prefix
        self.scripts = scripts or Scripts(redis)
        self.runners = runners or RunnerLimits()
        self.ready_key = ready_key(prefix)
        self.runners_key = runners_key(prefix)
        self.pending_key = pending_key(prefix)
        self._renewed: dict[str, float] = {}  # runner job id -> when it last renewed its slot

    def keys(self, game_id: str) -> GameKeys:
        """The keys of one game."""
        return GameKeys(self.prefix, game_id)

    async def create(
        self,
        game_id: str,
        meta: GameMeta,
        seed: bytes,
        events: list[NewEvent],
        finished: bool,
        views: dict[str, bytes] | None = None,
    ) -> Head:
        """Store a new game with its projections; GameExists if the id is taken."""
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
        return GameMeta(_text(game), _text(rules), int(seats), _text(created))

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
            raise GameDamaged(game_id, f"the head's version {_text(version)!r} is not a number")
        if cursor is None or not cursor.replace(b"-", b"", 1).isdigit():
            raise GameDamaged(game_id, "the head's inbox cursor is missing or malformed")
        return Head(int(version), chain or b"", _text(cursor), status == b"finished")

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
        return contiguous_events(game_id, after, entries, _stored_event)

    async def submit(
        self,
        game_id: str,
        command: ReceivedCommand,
        runner_job_id: str,
        rate_limit: int,
        rate_window_ms: int,
    ) -> SubmitResult:
        """Append to the inbox and mark the game ready; claim a runner slot if one is free."""
        keys = self.keys(game_id)
        reply = await self.scripts.submit(
            keys=[
                keys.meta,
                keys.commands,
                keys.inbox,
                keys.rate(command.seat),
                self.ready_key,
                self.runners_key,
                self.pending_key,
            ],
            args=[
                command.command_id,
                command.seat,
                command.request_id,
                command.body,
                runner_job_id,
                rate_limit,
                rate_window_ms,
                game_id,
                self.runners.max_runners,
                self.runners.slot_ttl_ms,
            ],
        )
        kind = reply[0]
        if kind == b"nogame":
            await self.absent(game_id)
        if kind == b"throttled":
            return Throttled(max(int(reply[1]), 1))
        if kind == b"accepted":
            return Accepted(_text(reply[1]), bool(int(reply[2])))
        record = await self._record(game_id, reply[1])
        received = await self.received(game_id, record.inbox_id)
        assert received is not None, "a known command is always in the inbox"
        return Duplicate(received, record)

    async def _record(self, game_id: str, stored: bytes) -> CommandRecord:
        if not _is_inbox_id(stored):
            try:
                return RECORD_DECODER.decode(stored)
            except (msgspec.DecodeError, msgspec.ValidationError):
                raise GameDamaged(game_id, "a command's outcome record does not decode") from None
        inbox_id = stored.decode()
        received = await self.received(game_id, inbox_id)
        seat = received.seat if received is not None else -1
        return CommandRecord("queued", seat, inbox_id)

    async def command(self, game_id: str, command_id: str) -> CommandRecord | None:
        """What became of a command, None if never received."""
        stored: Any = await self.redis.hget(self.keys(game_id).commands, command_id)
        if stored is None:
            return None
        return await self._record(game_id, stored)

    async def received(self, game_id: str, inbox_id: str) -> ReceivedCommand | None:
        """The command stored under an inbox id."""
        entries: Any = await self.redis.xrange(self.keys(game_id).inbox, min=inbox_id, max=inbox_id)
        return _checked_received(game_id, entries[0]) if entries else None

    async def inbox(self, game_id: str, after: str, limit: int) -> list[ReceivedCommand]:
        """Commands received after inbox id `after`, in the order received."""
        entries: Any = await self.redis.xrange(
            self.keys(game_id).inbox, min=f"({after}", max="+", count=limit
        )
        return [_checked_received(game_id, entry) for entry in entries]

    async def commit(self, game_id: str, batch: Batch) -> Head:
        """Append a batch atomically; VersionConflict, LeaseLost, AlreadyDecided or
        CommitFailed otherwise."""
        call = self._commit_call(game_id, batch, finish=False)
        if isinstance(call, CommitFailed):
            raise call
        [reply] = await self.scripts.run_all([call], keep_errors=True)
        outcome = self._committed(game_id, batch, reply)
        if isinstance(outcome, Committed):
            return outcome.head
        raise outcome

    async def commit_turns(self, batches: Sequence[tuple[str, Batch]]) -> list[CommitOutcome]:
        """Commit, release and notify each game of a round, all in one round trip."""
        calls, failed = self._round_calls(batches)
        replies = await self.scripts.run_all(calls, keep_errors=True)
        return self._round_committed(batches, replies, failed)

    async def commit_turns_then_take(
        self, batches: Sequence[tuple[str, Batch]], runner_job_id: str, count: int, wait_s: float
    ) -> tuple[list[CommitOutcome], list[str]]:
        """Commit the round, then take the runner's next games (BZMPOP when waiting), all in
        one pipeline: Redis runs the commits at once, and their replies come with the games."""
        calls, failed = self._round_calls(batches)
        commits = len(calls)
        if wait_s <= 0:
            calls.append(self._take_call(runner_job_id, count))
            *replies, taken = await self.scripts.run_all(calls, keep_errors=True)
            return self._round_committed(batches, replies, failed), [_text(g) for g in taken]
        # Blocks on the server (BZMPOP, Redis 7): a game marked ready wakes the runner at once,
        # and under load it returns at once with up to `count` games.
        if self._renewal_due(runner_job_id):
            calls.append(self._take_call(runner_job_id, 0))
        ready_key = self.ready_key
        *replies, popped = await self.scripts.run_all(
            calls,
            lambda pipe: pipe.bzmpop(wait_s, 1, [ready_key], min=True, count=count),
            keep_errors=True,
        )
        return self._round_committed(batches, replies[:commits], failed), _popped(popped)

    def _round_calls(
        self, batches: Sequence[tuple[str, Batch]]
    ) -> tuple[list[ScriptCall], dict[int, CommitFailed]]:
        """The commit calls of a round's batches; those that cannot be encoded fail alone."""
        calls: list[ScriptCall] = []
        failed: dict[int, CommitFailed] = {}
        for n, (game_id, batch) in enumerate(batches):
            call = self._commit_call(game_id, batch, finish=True)
            if isinstance(call, CommitFailed):
                failed[n] = call
            else:
                calls.append(call)
        return calls, failed

    def _round_committed(
        self,
        batches: Sequence[tuple[str, Batch]],
        replies: Sequence[Any],
        failed: dict[int, CommitFailed],
    ) -> list[CommitOutcome]:
        sent = iter(replies)
        return [
            failed[n] if n in failed else self._committed(game_id, batch, next(sent))
            for n, (game_id, batch) in enumerate(batches)
        ]

    def _commit_call(self, game_id: str, batch: Batch, finish: bool) -> ScriptCall | CommitFailed:
        """The commit script's call (`finish` also gives the lease back and notifies), or why
        the batch cannot be encoded."""
        try:
            records = [RECORD_ENCODER.encode(decided.record) for decided in batch.decided]
        except (OverflowError, TypeError, ValueError) as exc:
            return CommitFailed(game_id, f"the batch cannot be stored: {exc}")
        keys = self.keys(game_id)
        args: list[Any] = [
            batch.lease,
            batch.expected_version,
            batch.cursor,
            batch.head_hash,
            int(batch.finished),
            batch.lease_ttl_ms,
            len(batch.events),
            len(batch.decided),
            int(finish),
            game_id,
            keys.updates if finish else "",
        ]
        for event in batch.events:
            args += [event.data, event.hash, event.command_id or ""]
        for decided, record in zip(batch.decided, records, strict=True):
            args += [decided.command_id, record]
        for name, value in batch.views.items():
            args += [name, value]
        script_keys = [
            keys.meta,
            keys.events,
            keys.commands,
            keys.lease,
            keys.views,
            keys.inbox,
            self.ready_key,
        ]
        return self.scripts.commit, script_keys, args

    @staticmethod
    def _committed(game_id: str, batch: Batch, reply: list[Any] | Exception) -> CommitOutcome:
        if isinstance(reply, ResponseError):  # the script failed for this game alone
            return CommitFailed(game_id, str(reply))
        if isinstance(reply, Exception):
            raise reply
        kind = reply[0]
        if kind == b"ok":
            head = Head(int(reply[1]), batch.head_hash, batch.cursor, batch.finished)
            return Committed(head, bool(int(reply[2])))
        if kind == b"lease":
            return LeaseLost(game_id)
        if kind == b"nogame":
            return GameMissing(game_id)
        if kind == b"conflict":
            return VersionConflict(game_id, batch.expected_version, int(reply[1]))
        return AlreadyDecided(game_id, _text(reply[1]))

    async def view(self, game_id: str, name: str) -> tuple[int, bytes] | None:
        """(version, bytes) of one stored projection field, or None."""
        row: list[Any] = await self.redis.hmget(self.keys(game_id).views, ["v", name])
        version, data = row
        if version is None or data is None:
            return None
        if not version.isdigit():
            raise GameDamaged(game_id, "the stored views' version is not a number")
        return int(version), checked_view(game_id, name, int(version), data)

    async def acquire_lease(self, game_id: str, ttl_ms: int) -> int | None:
        """A fencing token for the game's lease, or None when another holder has it."""
        keys = self.keys(game_id)
        token = await self.scripts.lease(keys=[keys.lease, keys.fence], args=[ttl_ms])
        return None if token is None else int(token)

    async def open_turns(
        self, requests: Sequence[TurnRequest], ttl_ms: int, limit: int
    ) -> list[Turn | None]:
        """Open each game of a round (lease, head, commands, missing events) in one round
        trip; None in a game's place when it is leased elsewhere or does not exist."""
        calls: list[ScriptCall] = []
        for request in requests:
            keys = self.keys(request.game_id)
            script_keys = [keys.lease, keys.fence, keys.meta, keys.inbox, keys.events, keys.secret]
            calls.append(
                (self.scripts.open_turn, script_keys, [ttl_ms, limit, request.known_version])
            )
        return [_turn(reply) for reply in await self.scripts.run_all(calls)]

    async def release_lease(self, game_id: str, token: int) -> bool:
        """Give the lease back if `token` holds it; re-mark the game ready if commands wait."""
        keys = self.keys(game_id)
        put_back = await self.scripts.release_lease(
            keys=[keys.lease, keys.meta, keys.inbox, self.ready_key], args=[token, game_id]
        )
        return bool(put_back)

    async def lease_held(self, game_id: str) -> bool:
        """Whether some worker holds the game's lease now."""
        return bool(await self.redis.exists(self.keys(game_id).lease))

    async def take_ready(
        self, runner_job_id: str, count: int = 1, wait_s: float = 0.0
    ) -> list[str]:
        """Up to `count` games waiting longest, taken off the ready set, waiting up to
        `wait_s` for one when none is ready; renews the runner's slot."""
        _, taken = await self.commit_turns_then_take([], runner_job_id, count, wait_s)
        return taken

    def _take_call(self, runner_job_id: str, count: int) -> ScriptCall:
        """runner_take: renew the runner's slot and take up to `count` games (0: only renew)."""
        self._renewed[runner_job_id] = time.monotonic()
        keys = [self.ready_key, self.runners_key]
        return self.scripts.runner_take, keys, [runner_job_id, self.runners.slot_ttl_ms, count]

    def _renewal_due(self, runner_job_id: str) -> bool:
        # A waiting runner renews its slot often enough to keep it (every third of its TTL),
        # not on every round: a round trip saved per round at light load.
        renewed = self._renewed.get(runner_job_id)
        return renewed is None or time.monotonic() - renewed > self.runners.slot_ttl_ms / 3000

    async def end_runner(self, runner_job_id: str, next_job_id: str, keep: bool = False) -> bool:
        """Give up the runner's slot, or hand it to `next_job_id` (True) if games are ready
        or `keep` is asked for."""
        self._renewed.pop(runner_job_id, None)
        handed_over = await self.scripts.runner_end(
            keys=[self.ready_key, self.runners_key],
            args=[runner_job_id, next_job_id, self.runners.slot_ttl_ms, int(keep)],
        )
        return bool(handed_over)

    async def wake(self, game_id: str, runner_job_id: str) -> bool:
        """Mark the game ready; claim a slot for `runner_job_id` (True) if one is free."""
        claimed = await self.scripts.wake(
            keys=[self.ready_key, self.runners_key],
            args=[game_id, runner_job_id, self.runners.max_runners, self.runners.slot_ttl_ms],
        )
        return bool(claimed)
