"""A finished game read back for its rated result: the rules' outcome, who held each seat, and
which seats a bot took over, from the game's stored record (in Redis or archived)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from contracts.stream import GameCancelled, GameCreated, SeatAbandoned, SeatResigned
from service.adapters.store.ports import EventLog, GameMissing
from service.core.codec import codec_for, is_meta_event
from service.core.ratings.results import RatedResult, rated_result, seat_players
from service.core.ratings.variants import variant_of


class GameRecords(EventLog, Protocol):
    """A game's events and its seats hash (the store that falls back to the archive)."""

    async def token_hashes(self, game_id: str) -> dict[int, bytes]:
        """Each taken seat's stored value: a token hash, `p:<player>`, or `bot`."""
        ...


@dataclass(frozen=True)
class FinishedGame:
    """A finished game's rated result (None: it rates nobody) and when it finished (ms)."""

    game_id: str
    result: RatedResult | None
    finished_ms: int


def inbox_ms(inbox_id: str) -> int:
    """When an inbox entry was received (its id is `<ms>-<seq>`)."""
    return int(inbox_id.partition("-")[0] or 0)


async def read_finished(records: GameRecords, game_id: str) -> FinishedGame | None:
    """The game's rated result once it is over; None while it is not (GameMissing for none)."""
    head = await records.head(game_id)
    meta = await records.meta(game_id)
    if head is None or meta is None:
        raise GameMissing(game_id)
    if not head.finished:
        return None
    codec = codec_for(meta.game)
    game = codec.game
    created: GameCreated | None = None
    cancelled = False
    taken_over: list[int] = []
    state = None
    for stored in await records.read(game_id, 0, head.version):
        event = codec.decode_event(stored.data)
        if not is_meta_event(event):
            state = game.evolve(state, event)
        elif isinstance(event, GameCreated):
            created = event
        elif isinstance(event, SeatResigned | SeatAbandoned):
            taken_over.append(event.seat)
        elif isinstance(event, GameCancelled):
            cancelled = True
    finished_ms = inbox_ms(head.cursor)
    outcome = None if cancelled or state is None else game.outcome(state)
    if created is None or not created.rated or outcome is None:
        return FinishedGame(game_id, None, finished_ms)
    players = seat_players(await records.token_hashes(game_id))
    variant = variant_of(created.game, created.config)
    result = rated_result(game_id, created.game, variant, outcome, players, taken_over)
    return FinishedGame(game_id, result, finished_ms)
