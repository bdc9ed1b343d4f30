"""An in-process cache of seat token hashes, so most authentications skip the store."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable


class KnownTokens:
    """Seat token hashes already read, per game, so most authentications skip Redis.

    A taken seat's token hash never changes (only a player's seat, `p:<id>`, is ever given
    back, and players are not authenticated through here), so a match here is as good as one
    read now; a miss reads the seats again, since a seat may have been taken
    since. Misses are not cached: a wrong token always costs its read.
    """

    def __init__(self, read: Callable[[str], Awaitable[dict[int, bytes]]], size: int) -> None:
        self._read = read  # a game's token hashes by seat, as stored now
        self._size = size
        self._games: OrderedDict[str, dict[int, bytes]] = OrderedDict()

    async def seat_of(self, game_id: str, matches: Callable[[bytes], bool]) -> int | None:
        """The seat whose stored token hash `matches` (a constant-time check), or None."""
        known = self._games.get(game_id)
        if known is not None and (seat := _matching_seat(known, matches)) is not None:
            self._games.move_to_end(game_id)
            return seat
        known = await self._read(game_id)
        self._games[game_id] = known
        self._games.move_to_end(game_id)
        while len(self._games) > self._size:
            self._games.popitem(last=False)
        return _matching_seat(known, matches)


def _matching_seat(hashes: dict[int, bytes], matches: Callable[[bytes], bool]) -> int | None:
    # Check every seat without stopping early: the time taken does not tell which matched.
    found = None
    for seat, stored in hashes.items():
        if matches(stored):
            found = seat
    return found
