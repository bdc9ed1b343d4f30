"""The fixed facts of games (their meta), read once per process: a game's meta never changes."""

from __future__ import annotations

from collections import OrderedDict

from service.core.ports.event_store import EventLog, GameMissing
from service.core.ports.records import GameMeta, is_game_id


class GameMetas:
    """An LRU of games' metas, read from the store on a miss: GameMissing for no game,
    GameDamaged or GameQuarantined when the store says why a game's meta is gone."""

    def __init__(self, store: EventLog, size: int) -> None:
        self.store = store
        self.size = size
        self._metas: OrderedDict[str, GameMeta] = OrderedDict()

    async def get(self, game_id: str) -> GameMeta:
        """The game's meta, cached once read."""
        meta = self._metas.get(game_id)
        if meta is not None:
            return meta
        if not is_game_id(game_id):
            raise GameMissing(game_id)
        meta = await self.store.known_meta(game_id)
        self._metas[game_id] = meta
        while len(self._metas) > self.size:
            self._metas.popitem(last=False)
        return meta
