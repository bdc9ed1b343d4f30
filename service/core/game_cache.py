"""A least-recently-used cache of per-game objects (sessions, followed tables) by game id."""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, Protocol, TypeVar


class _OfAGame(Protocol):
    @property
    def game_id(self) -> str: ...


Cached = TypeVar("Cached", bound=_OfAGame)


class GameCache(Generic[Cached]):
    """Objects by game id, least recently used evicted first; `take` hands one over."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._games: OrderedDict[str, Cached] = OrderedDict()

    def take(self, game_id: str) -> Cached | None:
        """Remove and return the game's object (the caller owns it until `put`)."""
        return self._games.pop(game_id, None)

    def put(self, cached: Cached) -> None:
        """Keep an object whose state matches its version."""
        if self._size <= 0:
            return
        self._games[cached.game_id] = cached
        self._games.move_to_end(cached.game_id)
        while len(self._games) > self._size:
            self._games.popitem(last=False)

    def __len__(self) -> int:
        return len(self._games)
