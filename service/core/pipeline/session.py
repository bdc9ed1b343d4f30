"""A game loaded for deciding commands: its state folded from events, its seed, its head.

Workers keep an LRU of sessions by game id, so a busy game's next batch starts from the state
the last batch left (folding forward only what another worker applied since) instead of
refolding the stream.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import msgspec

from contracts.stream import (
    Clock,
    ClockSet,
    GameCancelled,
    GameOpened,
    SeatAbandoned,
    SeatForfeited,
    SeatResigned,
    SeatTakenBack,
    TableStarted,
    TurnClocks,
    TurnTimedOut,
)
from domain.chance import Chance
from domain.engine import Game
from service.core.codec import GameCodec, codec_for, is_meta_event
from service.core.pipeline.clocks import first_clocks
from service.core.ports.event_store import EventLog, GameMissing
from service.core.ports.records import GameMeta, Head, StoredEvent


@dataclass
class GameSession:
    """Everything needed to decide a game's next commands. The state is owned, not shared."""

    game_id: str
    meta: GameMeta
    codec: GameCodec
    chance: Chance
    seed: bytes
    state: Any
    version: int
    head_hash: bytes
    cursor: str
    finished: bool
    # The life cycle (docs/architecture.md): "started" for games without GameOpened (guest
    # games start at creation), else "open" until TableStarted, or "cancelled".
    phase: str = "started"
    bots: frozenset[int] = frozenset()
    clock: Clock | None = None  # the turn timer, for games created with one
    clocks: TurnClocks | None = None  # the deadlines now, each seat's bank and missed turns
    abandoned: frozenset[int] = frozenset()  # bots' seats a player may take back
    forfeited: frozenset[int] = frozenset()  # seats out of the game, ranked last

    @classmethod
    def start(
        cls, game_id: str, meta: GameMeta, codec: GameCodec, seed: bytes, head: Head
    ) -> GameSession:
        """A session before any event is folded (state None at version 0)."""
        return cls(
            game_id, meta, codec, Chance(seed), seed, None, 0, b"", head.cursor, head.finished
        )

    @property
    def game(self) -> Game:
        """The game's rules."""
        return self.codec.game

    @property
    def rules_supported(self) -> bool:
        """Whether this code implements the rules the game was created under."""
        return self.meta.rules_version == self.game.rules_version

    def behind(self, head: Head) -> bool:
        """Whether events up to `head` are to be folded in: the state is older, and the game
        runs under these rules (under others the events may not even decode)."""
        return self.version < head.version and self.rules_supported

    def move_to(self, head: Head) -> None:
        """Take the head's version, chain value, inbox cursor and status (once folded up to
        it, or when the state cannot be folded at all)."""
        self.version, self.head_hash = head.version, head.hash
        self.cursor, self.finished = head.cursor, head.finished

    def fold(self, events: list[StoredEvent]) -> None:
        """Apply stored events that follow the session's version."""
        evolve = self.game.evolve
        for stored in events:
            event = self.codec.decode_event(stored.data)
            if not is_meta_event(event):
                self.state = evolve(self.state, event)
            else:
                self.follow_lifecycle(event)
            self.version = stored.version
            self.head_hash = stored.hash

    def deadlines(self) -> dict[int, int]:
        """When each waited-for seat's clock runs out (ms), in a timed game."""
        if self.clocks is None or self.finished:
            return {}
        return {entry.seat: entry.deadline_ms for entry in self.clocks.entries}

    def follow_lifecycle(self, event: object) -> None:
        """Take the phase, the bots' seats or the clocks a service event sets."""
        if isinstance(event, ClockSet):
            self.clock = event.clock
            self.clocks = first_clocks(event.clock, self.meta.seats)
        elif isinstance(event, TurnClocks):
            self.clocks = event
        elif isinstance(event, TurnTimedOut) and self.clocks is not None:
            missed = list(self.clocks.missed)
            missed[event.seat] = event.missed
            self.clocks = msgspec.structs.replace(self.clocks, missed=missed)
        elif isinstance(event, SeatAbandoned):
            self.bots, self.abandoned = self.bots | {event.seat}, self.abandoned | {event.seat}
        elif isinstance(event, SeatForfeited):
            self.bots, self.forfeited = self.bots | {event.seat}, self.forfeited | {event.seat}
            self.abandoned = self.abandoned - {event.seat}
        elif isinstance(event, SeatTakenBack):
            self.bots, self.abandoned = self.bots - {event.seat}, self.abandoned - {event.seat}
            if self.clocks is not None:  # a fresh start: no missed turns in a row
                missed = list(self.clocks.missed)
                missed[event.seat] = 0
                self.clocks = msgspec.structs.replace(self.clocks, missed=missed)
        elif isinstance(event, SeatResigned):
            self.bots = self.bots | {event.seat}
        elif isinstance(event, GameOpened):
            self.phase = "open"
        elif isinstance(event, TableStarted):
            self.phase, self.bots = "started", frozenset(event.bots)
        elif isinstance(event, GameCancelled):
            self.phase = "cancelled"


async def load_session(
    store: EventLog,
    game_id: str,
    cached: GameSession | None = None,
    head: Head | None = None,
) -> GameSession:
    """The game at `head` (read now when not given), folding forward from `cached` when usable."""
    if head is None:
        head = await store.head(game_id)
    if head is None:
        raise GameMissing(game_id)
    if cached is not None and cached.version <= head.version:
        session = cached  # its meta never changes: no need to read it again
    else:
        meta = await store.meta(game_id)
        if meta is None:
            raise GameMissing(game_id)
        seed = await store.seed(game_id)
        if seed is None:
            raise GameMissing(game_id)
        session = GameSession.start(game_id, meta, codec_for(meta.game), seed, head)
    if session.behind(head):
        # Up to the head read above, never past it: the lease may be free (or lost), so
        # another worker may commit meanwhile, and a state folded past its version would be
        # folded forward again from that version by the next batch.
        missing = head.version - session.version
        session.fold(await store.read(game_id, after=session.version, limit=missing))
    session.move_to(head)
    return session


class SessionCache:
    """Sessions by game id, least recently used evicted first; a hit requires the same version."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._sessions: OrderedDict[str, GameSession] = OrderedDict()

    def take(self, game_id: str) -> GameSession | None:
        """Remove and return the game's session (the caller owns its state until `put`)."""
        return self._sessions.pop(game_id, None)

    def put(self, session: GameSession) -> None:
        """Keep a session whose state matches its version."""
        if self._size <= 0:
            return
        self._sessions[session.game_id] = session
        self._sessions.move_to_end(session.game_id)
        while len(self._sessions) > self._size:
            self._sessions.popitem(last=False)

    def __len__(self) -> int:
        return len(self._sessions)
