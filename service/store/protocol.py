"""The EventStore port: everything the command path needs to keep a game's record.

Two adapters meet it: `memory.InMemoryEventStore` (unit tests) and
`redis_events.RedisEventStore` (Redis Streams and Lua). One contract suite
(tests/unit/service/store_contract.py) runs against both.

The atomic steps, each all-or-nothing:
- `create`: a game's meta, its secret seed, its opening events and projections.
- `submit`: append a command to the inbox unless its id is known, count it against the seat's
  rate, and raise the drain flag (the caller enqueues a drain job when it raised it).
- `commit`: under the worker's lease (fencing token) and at the expected version, append a
  batch's events with their chain values, record each command's outcome (a command is decided
  at most once), store the projections at the new version and move the inbox cursor.
- `finish_drain`: lower the drain flag, raising it again when commands are still waiting, so
  that a command submitted while a drain job finishes is never left behind.
"""

from __future__ import annotations

from typing import Protocol

from service.errors import Conflict, NotFound
from service.store.records import (
    Batch,
    CommandRecord,
    GameMeta,
    Head,
    NewEvent,
    ReceivedCommand,
    StoredEvent,
    SubmitResult,
)


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


class EventStore(Protocol):
    """The record of every game: events, inbox, command outcomes, leases and drain flags."""

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

    async def head(self, game_id: str) -> Head | None:
        """Where the stream stands, or None when there is no such game."""
        ...

    async def seed(self, game_id: str) -> bytes | None:
        """The game's secret seed (workers only; never served before the game ends)."""
        ...

    async def read(
        self, game_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """Events with version > `after`, in order, at most `limit` of them."""
        ...

    async def submit(
        self,
        game_id: str,
        command: ReceivedCommand,
        drain_job_id: str,
        rate_limit: int,
        rate_window_ms: int,
    ) -> SubmitResult:
        """Append to the inbox unless the command id is known; GameMissing for no game."""
        ...

    async def command(self, game_id: str, command_id: str) -> CommandRecord | None:
        """What became of a command (status "queued" until decided), None if never received."""
        ...

    async def received(self, game_id: str, inbox_id: str) -> ReceivedCommand | None:
        """The command stored under an inbox id."""
        ...

    async def inbox(self, game_id: str, after: str, limit: int) -> list[ReceivedCommand]:
        """Commands received after inbox id `after`, in the order received."""
        ...

    async def commit(self, game_id: str, batch: Batch) -> Head:
        """Append a batch atomically; VersionConflict, LeaseLost or AlreadyDecided otherwise."""
        ...

    async def view(self, game_id: str, name: str) -> tuple[int, bytes] | None:
        """(version, bytes) of one stored projection field (see service.projections)."""
        ...

    async def acquire_lease(self, game_id: str, ttl_ms: int) -> int | None:
        """A fencing token for the game's lease, or None when another holder has it."""
        ...

    async def release_lease(self, game_id: str, token: int) -> None:
        """Give the lease back if `token` still holds it."""
        ...

    async def lease_held(self, game_id: str) -> bool:
        """Whether some worker holds the game's lease now."""
        ...

    async def drain_flag(self, game_id: str) -> str | None:
        """The id of the drain job the flag names, or None when no drain is scheduled."""
        ...

    async def set_drain_flag(self, game_id: str, job_id: str) -> None:
        """Name a new drain job in the flag (the sweeper replacing a lost one)."""
        ...

    async def finish_drain(self, game_id: str, next_job_id: str) -> bool:
        """Lower the flag; raise it for `next_job_id` and return True if commands still wait."""
        ...
