"""The facade's read side: the lobby, a seat's view and turn, event pages, live updates.

Views and turns are projections the workers stored pre-encoded with each commit, so a read is
one Redis read and no encoding. Every method raises a `service.shared.errors.ServiceError`
subclass on bad input and `Unavailable` when Redis cannot be reached.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from collections.abc import AsyncGenerator

import msgspec

from contracts.api import (
    EventPage,
    EventRecord,
    LobbyEntry,
    PlayerName,
    Turn,
)
from service.core.codec import codec_for
from service.core.ports.event_store import GameMissing, ReadStore
from service.core.ports.notifier import RECHECK, Notifier, Update
from service.core.ports.seats import Lobby, Seats
from service.core.ports.views import view_field
from service.core.projections import (
    FORMATS,
    TURN_FORMAT,
    decode_turn,
    visible_records,
)
from service.core.view_players import players_of, with_players
from service.facade.checks import (
    redis_guarded,
)
from service.facade.command_side import MIN_WAIT_S
from service.facade.metas import GameMetas
from service.facade.waits import deadline_after, next_update
from service.shared.errors import (
    Conflict,
    Forbidden,
    GameDamaged,
    GameQuarantined,
    InvalidInput,
    RateLimited,
)
from service.shared.settings import Settings

ViewFormat = str  # "json" or "msgpack"
SEATED_CACHE = 10_000  # games whose players (every seat taken) a process keeps


def seating_tag(players: list[PlayerName]) -> str:
    """A short tag of who sits where: the number of seats taken and a digest of the seats and
    names (a seat given back and taken by another keeps the number, not the digest)."""
    digest = hashlib.sha256(msgspec.json.encode(players)).hexdigest()[:8]
    return f"{len(players)}-{digest}"


class ReadSide:
    """What a seat or a spectator reads: nothing here changes a game."""

    def __init__(
        self,
        settings: Settings,
        store: ReadStore,
        seats: Seats,
        lobby: Lobby,
        notifier: Notifier,
        metas: GameMetas,
    ) -> None:
        self.settings = settings
        self.store = store
        self.seats = seats
        self.lobby = lobby
        self.notifier = notifier
        self.metas = metas
        self._streams: dict[str, int] = {}  # open update streams per game, this process
        # The players of games whose every seat is taken: names never change after that.
        self._seated: OrderedDict[str, list[PlayerName]] = OrderedDict()

    @redis_guarded
    async def open_games(self, game: str | None, limit: int) -> list[LobbyEntry]:
        """Games with free seats, newest first, optionally of one game only."""
        limit = max(1, min(limit, self.settings.max_lobby_page))
        entries = []
        for game_id in await self.lobby.newest(game, limit):
            try:
                meta = await self.metas.get(game_id)
            except (GameMissing, GameDamaged, GameQuarantined):
                continue  # the lobby lists the games that can be played
            taken = sorted(await self.seats.token_hashes(game_id))
            names = await self.seats.names(game_id, meta.seats)
            players = [PlayerName(seat, names.get(seat, "")) for seat in taken]
            entries.append(
                LobbyEntry(game_id, meta.game, meta.seats, taken, meta.created_at, players)
            )
        return entries

    @redis_guarded
    async def view(
        self, game_id: str, seat: int | None, fmt: ViewFormat = "json"
    ) -> tuple[int, bytes]:
        """(version, ViewEnvelope) for a seat or the public (seat None): the projection the
        workers stored pre-encoded, with the seated players' names."""
        version, body, _ = await self.seated_view(game_id, seat, fmt)
        return version, body

    @redis_guarded
    async def seated_view(
        self, game_id: str, seat: int | None, fmt: ViewFormat = "json"
    ) -> tuple[int, bytes, str | None]:
        """(version, ViewEnvelope, seating): the view, and while some seats are free a tag of
        who sits where (None once every seat is taken): a seat taken (or given back before
        the start) later changes the view's names at the same version."""
        if fmt not in FORMATS:
            raise InvalidInput("view.bad_format", f"views come as {' or '.join(FORMATS)}")
        meta = await self.metas.get(game_id)
        if seat is not None and not 0 <= seat < meta.seats:
            raise Forbidden("seat.out_of_range", f"no seat {seat} in this game")
        field = view_field(fmt, seat)
        stored, (players, full) = await asyncio.gather(
            self.store.view(game_id, field), self._players(game_id, meta.seats)
        )
        if stored is None:  # every game is created with its views
            await self.store.absent(game_id, f"stored view {field!r}")
        version, body = stored
        seating = None if full else seating_tag(players)
        return version, self._named(game_id, field, body, fmt, players), seating

    @redis_guarded
    async def with_players(self, game_id: str, body: bytes) -> bytes:
        """A JSON view envelope (as a notification carries it) with the seated players."""
        meta = await self.metas.get(game_id)
        players, _ = await self._players(game_id, meta.seats)
        return self._named(game_id, "a notified view", body, "json", players)

    async def _players(self, game_id: str, seats: int) -> tuple[list[PlayerName], bool]:
        cached = self._seated.get(game_id)
        if cached is not None:
            self._seated.move_to_end(game_id)
            return cached, True
        players = players_of(await self.store.names(game_id, seats))
        full = len(players) == seats
        if full:
            self._seated[game_id] = players
            if len(self._seated) > SEATED_CACHE:
                self._seated.popitem(last=False)
        return players, full

    @staticmethod
    def _named(game_id: str, field: str, body: bytes, fmt: str, players: list[PlayerName]) -> bytes:
        try:
            return with_players(body, fmt, players)
        except ValueError:
            raise GameDamaged(game_id, f"the stored view {field!r} does not decode") from None

    async def wait_turn(self, game_id: str, seat: int | None, after: int, timeout_s: float) -> Turn:
        """The turn once the game's version is past `after` (a start, a move, the end: every
        change of who acts or of the phase is a new version), or as it stands after
        `timeout_s` seconds."""
        timeout_s = max(0.0, min(timeout_s, self.settings.max_wait_s))
        current = await self.turn(game_id, seat)
        if current.version > after or timeout_s < MIN_WAIT_S:
            return current
        deadline = deadline_after(timeout_s)
        async with self.notifier.listen(game_id) as versions:
            # Subscribed before this read: a commit published after it wakes us.
            while (current := await self.turn(game_id, seat)).version <= after:
                if not await next_update(versions, deadline):
                    break
        return current

    @redis_guarded
    async def turn(self, game_id: str, seat: int | None) -> Turn:
        """Who acts now and, for `seat`, its legal commands (projected with the views)."""
        meta = await self.metas.get(game_id)
        if seat is not None and not 0 <= seat < meta.seats:
            raise Forbidden("seat.out_of_range", f"no seat {seat} in this game")
        field = view_field(TURN_FORMAT, seat)
        stored = await self.store.view(game_id, field)
        if stored is None:
            await self.store.absent(game_id, f"stored turn {field!r}")
        try:
            return decode_turn(stored[1])
        except (msgspec.DecodeError, msgspec.ValidationError):
            raise GameDamaged(game_id, f"the stored turn {field!r} does not decode") from None

    @redis_guarded
    async def events_after(
        self, game_id: str, after: int, seat: int | None, limit: int, until: int | None = None
    ) -> EventPage:
        """Events with version > `after` (and <= `until`, when given), filtered to what `seat`
        (None: spectator) may see."""
        meta = await self.metas.get(game_id)
        if after < 0:
            raise InvalidInput("events.bad_after", "`after` is a version, 0 or more")
        limit = max(1, min(limit, self.settings.max_events_page))
        head = await self.store.head(game_id)
        if head is None:
            await self.store.absent(game_id)
        codec = codec_for(meta.game)
        if meta.rules_version != codec.game.rules_version:
            # Its events may not even decode under these rules: say so rather than guess.
            raise Conflict(
                "game.rules_version",
                f"this game was created under {meta.game} rules version "
                f"{meta.rules_version!r}; this service implements {codec.game.rules_version!r}",
            )
        records: list[EventRecord] = []
        last = head.version if until is None else min(until, head.version)
        # Withheld events leave gaps: read on until the page is full or the head is reached.
        while len(records) < limit and after < last:
            chunk = await self.store.read(game_id, after, min(limit, last - after))
            if not chunk:
                ends = f"ends at version {after}" if after else "is missing"
                damage = f"the event stream {ends}, the head is at version {head.version}"
                raise GameDamaged(game_id, damage, after + 1)
            records += visible_records(codec, chunk, seat, head.finished)
            after = chunk[-1].version
        return EventPage(game_id=game_id, events=records[:limit], last_version=head.version)

    async def updates(self, game_id: str) -> AsyncGenerator[Update, None]:
        """The game's current version, then each new one as workers publish it (for SSE),
        with the viewers' views when the message carried them.

        Raises NotFound (unknown game) or RateLimited (too many streams on the game) when
        first iterated, and Unavailable if Redis is down at that point.
        """
        await redis_guarded(self.metas.get)(game_id)
        if self._streams.get(game_id, 0) >= self.settings.sse_per_game:
            raise RateLimited(
                "stream.too_many",
                f"at most {self.settings.sse_per_game} update streams per game",
                retry_after=5.0,
            )
        self._streams[game_id] = self._streams.get(game_id, 0) + 1
        try:
            async with self.notifier.listen(game_id) as updates:
                head = await redis_guarded(self.store.head)(game_id)
                last = head.version if head is not None else 0
                yield Update(last)
                while True:
                    update = await updates.get()
                    if update.version == RECHECK:
                        head = await redis_guarded(self.store.head)(game_id)
                        update = Update(head.version if head is not None else last)
                    if update.version > last:
                        last = update.version
                        yield update
        finally:
            self._streams[game_id] -= 1
            if not self._streams[game_id]:
                del self._streams[game_id]
