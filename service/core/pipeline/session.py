"""A game loaded for deciding commands: its table (domain.table) at the stream's head, the
head's chain value and the inbox cursor.

Workers keep an LRU of sessions by game id, so a busy game's next batch starts from the table
the last batch left (folding forward only what another worker applied since) instead of
refolding the stream.
"""

from __future__ import annotations

from typing import Any

from domain.engine import Game
from domain.table import Table, evolve
from service.core.codec import GameCodec, codec_for
from service.core.game_cache import GameCache
from service.core.ports.event_store import EventLog, GameMissing
from service.core.ports.records import GameMeta, Head, StoredEvent


class GameSession:
    """Everything needed to decide a game's next commands. The table is owned, not shared."""

    def __init__(
        self,
        game_id: str,
        meta: GameMeta,
        codec: GameCodec,
        table: Table,
        head_hash: bytes,
        cursor: str,
    ) -> None:
        self.game_id, self.table = game_id, table
        self.meta, self.codec = meta, codec
        self.head_hash, self.cursor = head_hash, cursor

    @property
    def meta(self) -> GameMeta:
        """The game's meta (its rules version is the table's)."""
        return self._meta

    @meta.setter
    def meta(self, meta: GameMeta) -> None:
        self._meta = meta
        self.table.rules_version = meta.rules_version

    @property
    def codec(self) -> GameCodec:
        """How the game's commands and events are encoded (its game is the table's rules)."""
        return self._codec

    @codec.setter
    def codec(self, codec: GameCodec) -> None:
        self._codec = codec
        self.table.game = codec.game

    @classmethod
    def start(
        cls, game_id: str, meta: GameMeta, codec: GameCodec, seed: bytes, head: Head
    ) -> GameSession:
        """A session before any event is folded (no state, at version 0)."""
        table = Table.new(codec.game, meta.seats, meta.rules_version, seed)
        table.finished = head.finished
        return cls(game_id, meta, codec, table, b"", head.cursor)

    @property
    def game(self) -> Game:
        """The game's rules."""
        return self.table.game

    @property
    def state(self) -> Any:
        """The game's own state."""
        return self.table.state

    @property
    def version(self) -> int:
        """The version of the last event folded."""
        return self.table.version

    @property
    def finished(self) -> bool:
        """Whether the game is over (finished or cancelled)."""
        return self.table.finished

    @property
    def rules_supported(self) -> bool:
        """Whether this code implements the rules the game was created under."""
        return self.table.rules_supported

    def behind(self, head: Head) -> bool:
        """Whether events up to `head` are to be folded in: the state is older, and the game
        runs under these rules (under others the events may not even decode)."""
        return self.version < head.version and self.rules_supported

    def move_to(self, head: Head) -> None:
        """Take the head's version, chain value, inbox cursor and status (once folded up to
        it, or when the state cannot be folded at all)."""
        self.table.version, self.head_hash = head.version, head.hash
        self.cursor, self.table.finished = head.cursor, head.finished

    def fold(self, events: list[StoredEvent]) -> None:
        """Apply stored events that follow the session's version."""
        decode, table = self.codec.decode_event, self.table
        for stored in events:
            evolve(table, decode(stored.data))
            table.version = stored.version
            self.head_hash = stored.hash


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


class SessionCache(GameCache[GameSession]):
    """Sessions by game id, least recently used evicted first; a hit requires the same version."""
