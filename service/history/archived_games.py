"""Games read from Redis, or from the archive once they left it: the store the facade's read
side and history use when cold storage is on.

Every read member of the store ports (meta, head, seed, events, inbox, outcome records, stored
projections) asks Redis first and, on a miss, the archive. An archived game is decoded once
and kept in a small LRU: its event chain values are recomputed (and must end at the archived
head's), and its projections are recomputed from its events the first time one is asked for,
exactly as the worker encoded them. Everything else (submits, drain rounds) goes to Redis: an
archived game is over, so a command for it is refused as for any finished game.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Generic, NoReturn, TypeVar

import msgspec

from service.core.pipeline.chain import genesis, link
from service.core.ports.archive import ArchiveStore, HotStore
from service.core.ports.archive_record import (
    ArchivedGame,
    applied_outcomes,
    decode_archive,
)
from service.core.ports.command_keys import command_key
from service.core.ports.event_store import GameMissing
from service.core.ports.records import (
    RECORD_DECODER,
    CommandRecord,
    GameMeta,
    Head,
    ReceivedCommand,
    StoredEvent,
    SubmitResult,
)
from service.history.loading import inbox_order, read_game
from service.history.rebuild import fresh_projections
from service.history.record import decode_history
from service.shared.errors import Conflict, GameDamaged

ARCHIVED_GAMES_CACHED = 256


class GameOver(Conflict):
    """A command for an archived game: it is over."""

    def __init__(self, game_id: str) -> None:
        super().__init__("game.finished", f"game {game_id!r} is over (archived)")


@dataclass
class ColdGame:
    """An archived game decoded for reading."""

    meta: GameMeta
    head: Head
    seed: bytes
    events: list[StoredEvent]
    inbox: list[ReceivedCommand]
    outcomes: dict[str, bytes]
    seats: dict[int, bytes]
    names: dict[int, str] = field(default_factory=dict)  # each taken seat's player's name
    views: dict[str, bytes] | None = field(default=None)


def cold_game(archived: ArchivedGame) -> ColdGame:
    """The archived record as the store's records; GameDamaged when its chain does not end at
    its head's value or its meta lacks the game's fixed facts."""
    game_id, meta = archived.game_id, archived.meta
    value = genesis(game_id)
    events = []
    for version, event in enumerate(archived.events, 1):
        value = link(value, event.data)
        events.append(StoredEvent(version, event.data, value, event.command_id))
    if events and value != meta.get("h"):
        raise GameDamaged(game_id, "the archived events do not end at the archived chain head")
    try:
        facts = GameMeta(
            meta["game"].decode(), meta["rv"].decode(), int(meta["seats"]), meta["created"].decode()
        )
    except (KeyError, ValueError, UnicodeDecodeError):
        raise GameDamaged(game_id, "the archived meta lacks the game's fixed facts") from None
    head = Head(len(events), meta.get("h", b""), archived.last_inbox_id, True)
    inbox = [
        ReceivedCommand(c.seat, c.command_id, c.request_id, c.body, c.inbox_id, c.expected_version)
        for c in archived.inbox
    ]
    seats = {int(seat): digest for seat, digest in archived.seats.items()}
    outcomes = {**applied_outcomes(archived.events, archived.inbox), **archived.outcomes}
    names = {
        int(name[1:]): value.decode(errors="replace")
        for name, value in meta.items()
        if name[:1] == "n" and name[1:].isdigit()
    }
    return ColdGame(facts, head, archived.seed, events, inbox, outcomes, seats, names)


Hot = TypeVar("Hot", bound=HotStore)


class ArchiveBackedStore(Generic[Hot]):
    """The event store (`hot`), falling back to the archive for games no longer in it."""

    def __init__(
        self, hot: Hot, archive: ArchiveStore, cached: int = ARCHIVED_GAMES_CACHED
    ) -> None:
        self.hot = hot
        self.archive = archive
        self._cached = cached
        self._games: OrderedDict[str, ColdGame] = OrderedDict()

    def __getattr__(self, name: str) -> Any:
        # Everything not read here (submits, drain rounds, scripts, keys) is Redis's alone.
        return getattr(self.hot, name)

    async def cold(self, game_id: str) -> ColdGame | None:
        """The archived game, None when it was never archived (ArchiveUnavailable when the
        archive cannot be read)."""
        game = self._games.get(game_id)
        if game is None:
            data = await self.archive.get(game_id)
            if data is None:
                return None
            game = cold_game(decode_archive(game_id, data))
            self._games[game_id] = game
            while len(self._games) > self._cached:
                self._games.popitem(last=False)
        self._games.move_to_end(game_id)
        return game

    async def meta(self, game_id: str) -> GameMeta | None:
        """The game's fixed facts, or None when there is no such game."""
        meta = await self.hot.meta(game_id)
        if meta is None and (game := await self.cold(game_id)) is not None:
            return game.meta
        return meta

    async def known_meta(self, game_id: str) -> GameMeta:
        """The game's fixed facts; GameMissing, GameQuarantined or GameDamaged without them."""
        meta = await self.meta(game_id)
        if meta is None:
            await self.hot.absent(game_id)
        return meta

    async def absent(self, game_id: str, what: str = "meta record") -> NoReturn:
        """Why the game is missing from Redis: archived (it is over), or as Redis tells."""
        if await self.cold(game_id) is not None:
            raise GameOver(game_id)
        await self.hot.absent(game_id, what)

    async def submit(self, game_id: str, *args: Any, **kwargs: Any) -> SubmitResult:
        """Redis's submit; GameOver instead of GameMissing for an archived game."""
        try:
            return await self.hot.submit(game_id, *args, **kwargs)
        except GameMissing:
            if await self.cold(game_id) is not None:
                raise GameOver(game_id) from None
            raise

    async def head(self, game_id: str) -> Head | None:
        """Where the stream stands, or None when there is no such game."""
        head = await self.hot.head(game_id)
        if head is None and (game := await self.cold(game_id)) is not None:
            return game.head
        return head

    async def seed(self, game_id: str) -> bytes | None:
        """The game's seed (an archived game is over: its seed is revealed)."""
        seed = await self.hot.seed(game_id)
        if seed is None and (game := await self.cold(game_id)) is not None:
            return game.seed
        return seed

    async def read(
        self, game_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """Events with version > `after`, in order, at most `limit` of them."""
        events = await self.hot.read(game_id, after, limit)
        if events or await self.hot.head(game_id) is not None:
            return events
        game = await self.cold(game_id)
        if game is None:
            return []
        return game.events[after : None if limit is None else after + limit]

    async def command(self, game_id: str, seat: int, command_id: str) -> CommandRecord | None:
        """What became of a seat's command, None if the seat never sent that id."""
        record = await self.hot.command(game_id, seat, command_id)
        if record is not None or (game := await self._cold_unless_hot(game_id)) is None:
            return record
        keyed = game.outcomes.get(command_key(seat, command_id))
        bare = game.outcomes.get(command_id)  # a record from before ids were per seat
        for stored in (keyed, bare):
            if stored is None:
                continue
            try:
                record = RECORD_DECODER.decode(stored)
            except (msgspec.DecodeError, msgspec.ValidationError):
                raise GameDamaged(game_id, "an archived outcome record does not decode") from None
            if stored is keyed or record.seat == seat:
                return record
        return None

    async def received(self, game_id: str, inbox_id: str) -> ReceivedCommand | None:
        """The command stored under an inbox id."""
        received = await self.hot.received(game_id, inbox_id)
        if received is not None or (game := await self._cold_unless_hot(game_id)) is None:
            return received
        return next((c for c in game.inbox if c.inbox_id == inbox_id), None)

    async def inbox(self, game_id: str, after: str, limit: int) -> list[ReceivedCommand]:
        """Commands received after inbox id `after`, in the order received."""
        commands = await self.hot.inbox(game_id, after, limit)
        if commands or (game := await self._cold_unless_hot(game_id)) is None:
            return commands
        later = [c for c in game.inbox if inbox_order(c.inbox_id) > inbox_order(after)]
        return later[:limit]

    async def view(self, game_id: str, name: str) -> tuple[int, bytes] | None:
        """(version, bytes) of one projection: stored in Redis, or recomputed from the
        archived events (once per cached game)."""
        stored = await self.hot.view(game_id, name)
        if stored is not None or (game := await self._cold_unless_hot(game_id)) is None:
            return stored
        if game.views is None:
            game.views = fresh_projections(decode_history(await read_game(self, game_id)))
        data = game.views.get(name)
        return None if data is None else (game.head.version, data)

    async def names(self, game_id: str, seats: int) -> dict[int, str]:
        """Each taken seat's player's name: from Redis, or the archive for an archived game."""
        names = await self.hot.names(game_id, seats)
        if names or (game := await self._cold_unless_hot(game_id)) is None:
            return names
        return game.names

    async def token_hashes(self, game_id: str) -> dict[int, bytes]:
        """Each taken seat's token hash: from Redis, or the archive for an archived game."""
        hashes = await self.hot.token_hashes(game_id)
        if hashes or (game := await self._cold_unless_hot(game_id)) is None:
            return hashes
        return game.seats

    async def _cold_unless_hot(self, game_id: str) -> ColdGame | None:
        # A miss in Redis for a game still there is a real miss, not a reason to ask the archive.
        if await self.hot.holds(game_id):
            return None
        return await self.cold(game_id)
