"""An in-memory store with the Redis adapter's semantics, kept only for the tests that need a
clock they control (runner slots and leases expiring without a sleep: test_runner.py, and the
lease lost mid-batch of test_drain.py) and for the history benchmark (no storage round trips
in its figures). Every other test of store behaviour runs the Redis adapter, on fakeredis and
on a real Redis.

It is the core's `EventStore` port (service.core.ports.event_store) and nothing more: every
member of the port, as the Redis adapter answers it on one Redis (no drain shards, no
quarantine), and no member the port lacks (tests/fakes/test_ports.py holds it to that). Each
method runs without awaiting in between, so each is atomic under asyncio like a Lua script is
on Redis. Time comes from an injectable clock so tests can expire leases and rate windows
without sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NoReturn

import msgspec

from service.core.ports.command_keys import command_key
from service.core.ports.event_store import (
    AlreadyDecided,
    CommitFailed,
    CommitOutcome,
    GameExists,
    GameMissing,
    LeaseLost,
    VersionConflict,
)
from service.core.ports.records import (
    NO_INBOX_ID,
    RECORD_ENCODER,
    Accepted,
    Batch,
    CommandRecord,
    Committed,
    Duplicate,
    GameMeta,
    GameRound,
    Head,
    NewEvent,
    ReceivedCommand,
    RoundRequest,
    RunnerLimits,
    StoredEvent,
    SubmitResult,
    Throttled,
)
from service.shared.errors import Conflict


def _inbox_key(inbox_id: str) -> tuple[int, int]:
    ms, seq = inbox_id.split("-", 1)
    return int(ms), int(seq)


@dataclass
class _Game:
    meta: GameMeta
    seed: bytes
    head: Head
    events: list[StoredEvent] = field(default_factory=list)
    inbox: list[ReceivedCommand] = field(default_factory=list)
    commands: dict[str, CommandRecord] = field(default_factory=dict)
    lease: tuple[int, float] | None = None  # (token, expires at)
    fence: int = 0
    rates: dict[int, tuple[int, float]] = field(default_factory=dict)  # seat -> (used, ends)
    views: dict[str, bytes] = field(default_factory=dict)
    views_version: int = 0


class InMemoryEventStore:
    """Games kept in a dict; `clock` returns seconds (time.time by default)."""

    def __init__(
        self, clock: Callable[[], float] = time.time, runners: RunnerLimits | None = None
    ) -> None:
        self._games: dict[str, _Game] = {}
        self._clock = clock
        self._last_inbox_id = (0, 0)
        self._runners = runners or RunnerLimits()
        self._ready: dict[str, float] = {}  # game id -> when it became ready
        self._slots: dict[str, float] = {}  # runner job id -> when its slot expires
        self._readied = asyncio.Event()  # set whenever a game becomes ready

    def _mark_ready(self, game_id: str) -> None:
        self._ready.setdefault(game_id, self._clock())
        self._readied.set()

    def _claim_slot(self, runner_job_id: str) -> bool:
        now = self._clock()
        self._slots = {job: ends for job, ends in self._slots.items() if ends > now}
        if len(self._slots) >= self._runners.max_runners:
            return False
        self._slots[runner_job_id] = now + self._runners.slot_ttl_ms / 1000
        return True

    async def _waiting(self, game_id: str) -> bool:
        game = self._games.get(game_id)
        return game is not None and bool(await self.inbox(game_id, game.head.cursor, 1))

    def _game(self, game_id: str) -> _Game:
        game = self._games.get(game_id)
        if game is None:
            raise GameMissing(game_id)
        return game

    def _next_inbox_id(self) -> str:
        ms = int(self._clock() * 1000)
        last_ms, last_seq = self._last_inbox_id
        self._last_inbox_id = (ms, 0) if ms > last_ms else (last_ms, last_seq + 1)
        return "{}-{}".format(*self._last_inbox_id)

    def _lease_token(self, game: _Game) -> int | None:
        if game.lease is None or game.lease[1] <= self._clock():
            game.lease = None
            return None
        return game.lease[0]

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
        if game_id in self._games:
            raise GameExists(game_id)
        head = Head(len(events), events[-1].hash if events else b"", NO_INBOX_ID, finished)
        stored = [StoredEvent(v, e.data, e.hash, e.command_id) for v, e in enumerate(events, 1)]
        game = self._games[game_id] = _Game(meta, seed, head, stored)
        if views:
            game.views, game.views_version = dict(views), head.version
        return head

    async def meta(self, game_id: str) -> GameMeta | None:
        """The game's fixed facts, or None when there is no such game."""
        game = self._games.get(game_id)
        return None if game is None else game.meta

    async def known_meta(self, game_id: str) -> GameMeta:
        """The game's fixed facts; GameMissing without them."""
        return self._game(game_id).meta

    async def absent(self, game_id: str, what: str = "meta record") -> NoReturn:
        """GameMissing: this store neither quarantines nor damages a game."""
        raise GameMissing(game_id)

    async def head(self, game_id: str) -> Head | None:
        """Where the stream stands, or None when there is no such game."""
        game = self._games.get(game_id)
        return None if game is None else game.head

    async def seed(self, game_id: str) -> bytes | None:
        """The game's secret seed."""
        game = self._games.get(game_id)
        return None if game is None else game.seed

    async def read(
        self, game_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """Events with version > `after`, in order, at most `limit` of them."""
        game = self._games.get(game_id)
        if game is None:
            return []
        events = game.events[max(after, 0) :]
        return events if limit is None else events[:limit]

    def placed_game_id(self, head: str) -> str:
        """`head` itself: this store has no drain shards."""
        return head

    def runner_job_for(self, game_id: str, job_id: str) -> str:
        """`job_id` itself: this store has no drain shards."""
        return job_id

    async def submit(
        self,
        game_id: str,
        command: ReceivedCommand,
        runner_job_id: str,
        rate_limit: int,
        rate_window_ms: int,
    ) -> SubmitResult:
        """Append to the inbox and mark the game ready; claim a runner slot if one is free."""
        game = self._game(game_id)
        known = game.commands.get(command.key)
        if known is not None:
            received = await self.received(game_id, known.inbox_id)
            assert received is not None
            return Duplicate(received, known)
        if command.seat >= 0 and game.head.finished:  # as submit.lua
            raise Conflict("game.finished", f"game {game_id!r} is over: it takes no command")
        if rate_limit > 0:
            now = self._clock()
            used, ends = game.rates.get(command.seat, (0, now + rate_window_ms / 1000))
            if ends <= now:
                used, ends = 0, now + rate_window_ms / 1000
            game.rates[command.seat] = (used + 1, ends)
            if used + 1 > rate_limit:
                return Throttled(max(int((ends - now) * 1000), 1))
        inbox_id = self._next_inbox_id()
        game.inbox.append(msgspec.structs.replace(command, inbox_id=inbox_id))
        game.commands[command.key] = CommandRecord("queued", command.seat, inbox_id)
        self._mark_ready(game_id)
        return Accepted(inbox_id, self._claim_slot(runner_job_id))

    async def command(self, game_id: str, seat: int, command_id: str) -> CommandRecord | None:
        """What became of a seat's command, None if the seat never sent that id."""
        game = self._games.get(game_id)
        return None if game is None else game.commands.get(command_key(seat, command_id))

    async def received(self, game_id: str, inbox_id: str) -> ReceivedCommand | None:
        """The command stored under an inbox id."""
        game = self._games.get(game_id)
        if game is None:
            return None
        return next((c for c in game.inbox if c.inbox_id == inbox_id), None)

    async def inbox(self, game_id: str, after: str, limit: int) -> list[ReceivedCommand]:
        """Commands received after inbox id `after`, in the order received."""
        game = self._games.get(game_id)
        if game is None:
            return []
        start = _inbox_key(after)
        return [c for c in game.inbox if _inbox_key(c.inbox_id) > start][:limit]

    async def commit(self, game_id: str, batch: Batch) -> Head:
        """Append a batch atomically; VersionConflict, LeaseLost or AlreadyDecided otherwise."""
        game = self._games.get(game_id)
        # Like the Lua script, the lease is checked first: no game has no lease either.
        if game is None or self._lease_token(game) != batch.lease:
            raise LeaseLost(game_id)
        if game.head.version != batch.expected_version:
            raise VersionConflict(game_id, batch.expected_version, game.head.version)
        for decided in batch.decided:
            known = game.commands.get(decided.key)
            if known is None or known.status != "queued":
                raise AlreadyDecided(game_id, decided.key)
        for decided in batch.decided:
            # Records are kept as objects here, but must be storable as on Redis.
            try:
                RECORD_ENCODER.encode(decided.record)
            except (OverflowError, TypeError, ValueError) as exc:
                raise CommitFailed(game_id, f"the batch cannot be stored: {exc}") from None
        version = game.head.version
        for event in batch.events:
            version += 1
            game.events.append(StoredEvent(version, event.data, event.hash, event.command_id))
        for decided in batch.decided:
            game.commands[decided.key] = decided.record
        game.head = Head(
            version, batch.head_hash, batch.cursor, game.head.finished or batch.finished
        )
        game.lease = (batch.lease, self._clock() + batch.lease_ttl_ms / 1000)
        if batch.views:
            # As commit.lua: the `live:` fields ride to the notification, never stored.
            game.views.update(
                (name, value) for name, value in batch.views.items() if not name.startswith("live:")
            )
            game.views_version = version
        return game.head

    async def commit_round(self, batches: Sequence[tuple[str, Batch]]) -> list[CommitOutcome]:
        """Commit and release each game of a round; refusals in their game's place (nobody
        listens for new versions here)."""
        outcomes: list[CommitOutcome] = []
        for game_id, batch in batches:
            try:
                head = await self.commit(game_id, batch)
            except (
                LeaseLost,
                VersionConflict,
                AlreadyDecided,
                GameMissing,
                CommitFailed,
            ) as refused:
                outcomes.append(refused)
                continue
            put_back = await self.release_lease(game_id, batch.lease)
            outcomes.append(Committed(head, put_back))
        return outcomes

    def marks_in_commit(self, marks_key: str) -> bool:
        """No: this store has no notification index (the drain marks its games itself)."""
        return False

    async def commit_round_then_take(
        self, batches: Sequence[tuple[str, Batch]], runner_job_id: str, count: int, wait_s: float
    ) -> tuple[list[CommitOutcome], list[str]]:
        """Commit the round, then take the runner's next games (waiting up to `wait_s`)."""
        outcomes = await self.commit_round(batches)
        return outcomes, await self.take_ready(runner_job_id, count, wait_s)

    async def view(self, game_id: str, name: str) -> tuple[int, bytes] | None:
        """(version, bytes) of one stored projection field, or None."""
        game = self._games.get(game_id)
        if game is None or name not in game.views:
            return None
        return game.views_version, game.views[name]

    async def names(self, game_id: str, seats: int) -> dict[int, str]:
        """No names: seats are taken through the side keys (Redis), which this store lacks."""
        return {}

    def _take_lease(self, game_id: str, ttl_ms: int) -> int | None:
        """A fencing token for the game's lease, or None when another holder has it."""
        game = self._game(game_id)
        if self._lease_token(game) is not None:
            return None
        game.fence += 1
        game.lease = (game.fence, self._clock() + ttl_ms / 1000)
        return game.fence

    async def open_round(
        self, requests: Sequence[RoundRequest], ttl_ms: int, limit: int
    ) -> list[GameRound | None]:
        """Open each game of a round: lease, head, commands and the events asked for."""
        rounds: list[GameRound | None] = []
        for request in requests:
            game = self._games.get(request.game_id)
            token = None if game is None else self._take_lease(request.game_id, ttl_ms)
            if game is None or token is None:
                rounds.append(None)
                continue
            known = request.known_version
            cold = known == 0
            rounds.append(
                GameRound(
                    lease=token,
                    head=game.head,
                    commands=await self.inbox(request.game_id, game.head.cursor, limit),
                    events=game.events[known:] if known >= 0 else [],
                    meta=game.meta if cold else None,
                    seed=game.seed if cold else None,
                )
            )
        return rounds

    async def release_lease(self, game_id: str, token: int) -> bool:
        """Give the lease back if `token` holds it; re-mark the game ready if commands wait."""
        game = self._games.get(game_id)
        if game is not None and self._lease_token(game) == token:
            game.lease = None
        if not await self._waiting(game_id):
            return False
        self._mark_ready(game_id)
        return True

    async def lease_held(self, game_id: str) -> bool:
        """Whether some worker holds the game's lease now."""
        game = self._games.get(game_id)
        return game is not None and self._lease_token(game) is not None

    async def take_ready(
        self, runner_job_id: str, count: int = 1, wait_s: float = 0.0
    ) -> list[str]:
        """Up to `count` games waiting longest, taken off the ready set, waiting up to
        `wait_s` (real seconds) for one when none is ready; renews the runner's slot."""
        taken = self._take_ready(runner_job_id, count)
        if taken or wait_s <= 0:
            return taken
        self._readied.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._readied.wait(), wait_s)
        return self._take_ready(runner_job_id, count)

    def _take_ready(self, runner_job_id: str, count: int) -> list[str]:
        if runner_job_id in self._slots:
            self._slots[runner_job_id] = self._clock() + self._runners.slot_ttl_ms / 1000
        taken = sorted(self._ready, key=lambda g: (self._ready[g], g))[:count]  # ZPOPMIN's order
        for game_id in taken:
            del self._ready[game_id]
        return taken

    async def end_runner(self, runner_job_id: str, next_job_id: str, keep: bool = False) -> bool:
        """Give up the runner's slot, or hand it to `next_job_id` (True) if games are ready
        or `keep` is asked for."""
        self._slots.pop(runner_job_id, None)
        if not self._ready and not keep:
            return False
        self._slots[next_job_id] = self._clock() + self._runners.slot_ttl_ms / 1000
        return True

    async def wake(self, game_id: str, runner_job_id: str) -> bool:
        """Mark the game ready; claim a slot for `runner_job_id` (True) if one is free."""
        self._mark_ready(game_id)
        return self._claim_slot(runner_job_id)
