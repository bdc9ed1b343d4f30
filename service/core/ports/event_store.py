"""The store's ports, split by concern: the event log (`EventLog`), the command inbox
(`CommandInbox`), the stored projections (`ProjectionReader`) and the drain runners' rounds
(`DrainRounds`). Each user depends on the ports it needs (`CommandStore` for the facade's
command side, `ReadStore` for its read side, `DrainStore` for the drain, `SweptStore` for the
sweeper, `HistoryStore` for history); `EventStore` is all of them, as the one adapter,
`redis_store.RedisEventStore` (Redis Streams and Lua), provides them. The contract suite
(tests/unit/adapters/store_contract.py) runs it on fakeredis and on a real Redis.

The atomic steps, each all-or-nothing:
- `create`: a game's meta, its secret seed, its opening events and projections.
- `submit`: append a command to the inbox unless its id is known, count it against the seat's
  rate, put the game in the ready set (and the sweeper's pending index) and claim a drain
  runner slot when fewer than `max_runners` are alive (the caller then enqueues that runner).
- `open_round`: for each game of a drain round, take its lease and read its head, the
  commands past its cursor and the events the worker's cached state lacks (the Redis
  adapter opens every game of the round in one round trip).
- `commit`: one game's batch alone, under its lease (a game whose round commit failed is
  decided again one command at a time through it).
- `commit_round`: for each game of the round, in one step: under the runner's lease (fencing
  token) and at the expected version, append the batch's events with their chain values,
  record each command's outcome (a command is decided at most once), store the projections at
  the new version and move the inbox cursor; then give the lease back as `release_lease` does
  and notify the game's listeners of the new version (one round trip for the round).
- `release_lease`: give a game's lease back and put the game back in the ready set when
  commands still wait (a runner that found the game leased skipped it).
- `take_ready` / `end_runner`: a runner takes the games waiting longest (renewing its slot);
  it gives its slot up only when no game is ready, else hands it to a successor job, so a
  game marked ready while a runner stops is never left without one.
- `wake`: the sweeper puts back a game a dead runner took, and claims a slot if none is alive.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn, Protocol

from service.core.ports.records import (
    Batch,
    CommandRecord,
    Committed,
    GameMeta,
    GameRound,
    Head,
    NewEvent,
    ReceivedCommand,
    RoundRequest,
    StoredEvent,
    SubmitResult,
)
from service.shared.errors import Conflict, NotFound, ServiceError


class GameExists(Conflict):
    """A game with this id already exists."""

    def __init__(self, game_id: str) -> None:
        super().__init__("game.exists", f"game {game_id!r} already exists")


class VersionConflict(Conflict):
    """The stream moved on since the caller read it."""

    def __init__(self, game_id: str, expected: int, actual: int) -> None:
        super().__init__(
            "stream.version_conflict",
            f"game {game_id!r} is at version {actual}, not {expected}",
            details={"expected": expected, "actual": actual},
        )
        self.actual = actual


class LeaseLost(Conflict):
    """The caller's lease on the game expired or was taken over: it must stop writing."""

    def __init__(self, game_id: str) -> None:
        super().__init__("stream.lease_lost", f"lost the lease on game {game_id!r}")


class AlreadyDecided(Conflict):
    """A batch tried to decide a command that already has an outcome."""

    def __init__(self, game_id: str, command_id: str) -> None:
        super().__init__(
            "command.already_decided",
            f"command {command_id!r} of game {game_id!r} already has an outcome",
        )


class GameMissing(NotFound):
    """No game with this id."""

    def __init__(self, game_id: str) -> None:
        super().__init__("game.not_found", f"no game {game_id!r}")


class CommitFailed(ServiceError):
    """A batch the store could not write: a value it cannot encode (an int past 64 bits in an
    outcome record), or an error the store raised for this game alone."""

    def __init__(self, game_id: str, reason: str) -> None:
        super().__init__("stream.commit_failed", f"game {game_id!r}: {reason}")


# What committing one game of a round came to: committed (lease given back), or the reason
# nothing of its batch was written (its lease is then kept).
CommitOutcome = (
    Committed | LeaseLost | VersionConflict | AlreadyDecided | GameMissing | CommitFailed
)


class EventLog(Protocol):
    """A game's fixed facts, its secret seed and its event stream."""

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
        ...

    async def meta(self, game_id: str) -> GameMeta | None:
        """The game's fixed facts, or None when there is no such game."""
        ...

    async def known_meta(self, game_id: str) -> GameMeta:
        """The game's fixed facts; GameMissing, GameQuarantined or GameDamaged without them."""
        ...

    async def head(self, game_id: str) -> Head | None:
        """Where the stream stands, or None when there is no such game."""
        ...

    async def absent(self, game_id: str, what: str = "meta record") -> NoReturn:
        """Raise why the game's `what` is missing (GameMissing, GameOver, GameDamaged, ...)."""
        ...

    async def seed(self, game_id: str) -> bytes | None:
        """The game's secret seed (workers only; never served before the game ends)."""
        ...

    async def read(
        self, game_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """Events with version > `after`, in order, at most `limit` of them."""
        ...


class CommandInbox(Protocol):
    """Commands as received, in order, and what became of each."""

    def placed_game_id(self, head: str) -> str:
        """The id for a new game from the random `head`: `head` itself, or on a Redis Cluster
        with drain shards `head` and four characters putting it in a shard's slot."""
        ...

    def runner_job_for(self, game_id: str, job_id: str) -> str:
        """The id to give the runner a submit to `game_id` may start: `job_id`, or on a
        cluster with drain shards `job_id` naming the game's shard (where its slot is)."""
        ...

    async def submit(
        self,
        game_id: str,
        command: ReceivedCommand,
        runner_job_id: str,
        rate_limit: int,
        rate_window_ms: int,
    ) -> SubmitResult:
        """Append to the inbox and mark the game ready; claim a runner slot for
        `runner_job_id` when one is free. GameMissing for no game."""
        ...

    async def command(self, game_id: str, seat: int, command_id: str) -> CommandRecord | None:
        """What became of a seat's command (status "queued" until decided), None if the seat
        never sent that id (command ids are per seat: `command_keys`)."""
        ...

    async def received(self, game_id: str, inbox_id: str) -> ReceivedCommand | None:
        """The command stored under an inbox id."""
        ...

    async def inbox(self, game_id: str, after: str, limit: int) -> list[ReceivedCommand]:
        """Commands received after inbox id `after`, in the order received."""
        ...


class ProjectionReader(Protocol):
    """The projections (views, turns) stored pre-encoded with each commit."""

    async def view(self, game_id: str, name: str) -> tuple[int, bytes] | None:
        """(version, bytes) of one stored projection field (see service.core.projections)."""
        ...

    async def names(self, game_id: str, seats: int) -> dict[int, str]:
        """The name each taken seat's player gave when joining (views name the players)."""
        ...


class DrainRounds(Protocol):
    """The drain runners' work: ready games, runner slots, leases, and the rounds that open
    and commit games in one round trip each."""

    async def open_round(
        self, requests: Sequence[RoundRequest], ttl_ms: int, limit: int
    ) -> list[GameRound | None]:
        """For each request, in one atomic step per game: take the game's lease and read its
        head, up to `limit` waiting commands and the events the request asks for. None in a
        game's place when another holder has its lease or there is no such game."""
        ...

    async def commit(self, game_id: str, batch: Batch) -> Head:
        """Append a batch atomically; VersionConflict, LeaseLost, AlreadyDecided or
        CommitFailed otherwise."""
        ...

    async def commit_round(self, batches: Sequence[tuple[str, Batch]]) -> list[CommitOutcome]:
        """For each (game id, batch): `commit`, then give the lease back as `release_lease`
        does and tell the game's listeners its new version (when the batch decided anything),
        in one atomic step per game. A game whose commit is refused or fails gets the error in
        its place (its lease is kept); the round's other games are committed all the same."""
        ...

    async def commit_round_then_take(
        self, batches: Sequence[tuple[str, Batch]], runner_job_id: str, count: int, wait_s: float
    ) -> tuple[list[CommitOutcome], list[str]]:
        """`commit_round`, then `take_ready(runner_job_id, count, wait_s)`, in one round trip:
        a runner's wait for its next games costs no call of its own. The commits are written
        before the wait; their outcomes come back with the games taken."""
        ...

    def marks_in_commit(self, marks_key: str) -> bool:
        """Have every later commit that decides commands also mark its game in `marks_key`
        (the notification projector's index, as `NotifyMarks.mark`) in its atomic step, unless
        guests hold every seat of the game (nobody to tell, ever); True if it will, False if
        this store cannot (the caller marks its games itself)."""
        ...

    async def release_lease(self, game_id: str, token: int) -> bool:
        """Give the lease back if `token` still holds it; put the game back in the ready set
        and return True when commands still wait."""
        ...

    async def lease_held(self, game_id: str) -> bool:
        """Whether some worker holds the game's lease now."""
        ...

    async def take_ready(
        self, runner_job_id: str, count: int = 1, wait_s: float = 0.0
    ) -> list[str]:
        """Up to `count` games, those waiting longest first, removed from the ready set; when
        none is ready, waits up to `wait_s` seconds for one (none if none came); renews the
        runner's slot if it still has one."""
        ...

    async def end_runner(self, runner_job_id: str, next_job_id: str, keep: bool = False) -> bool:
        """Give up the runner's slot; if games are ready, or `keep` asks for it, hand it to
        `next_job_id` and return True (the caller enqueues that job)."""
        ...

    async def wake(self, game_id: str, runner_job_id: str) -> bool:
        """Put the game in the ready set; claim a slot for `runner_job_id` and return True
        when fewer than `max_runners` runners are alive."""
        ...


class EventStore(EventLog, CommandInbox, ProjectionReader, DrainRounds, Protocol):
    """Everything one storage adapter provides. Each user depends on the narrow ports it needs."""


class CommandStore(EventLog, CommandInbox, Protocol):
    """What the facade's command side uses: games created, commands submitted and decided."""


class ReadStore(EventLog, ProjectionReader, Protocol):
    """What the facade's read side uses: heads, event pages and stored projections."""


class DrainStore(EventLog, DrainRounds, Protocol):
    """What a drain runner uses: its rounds, and the event log to load a game cold."""


class SweptStore(EventLog, CommandInbox, DrainRounds, Protocol):
    """What the sweeper reads and wakes: heads, inboxes, leases and the ready set."""


class HistoryStore(EventLog, CommandInbox, ProjectionReader, Protocol):
    """What replay, audit, verification and rebuilds read: a game's whole record."""
