"""A finished game read back for its rated result: the rules' outcome, who held each seat,
which seats a bot took over, and which left before their player's first move, from the game's
stored record (in Redis or archived)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from contracts.stream import (
    BOT_ID_PREFIX,
    GameCancelled,
    GameCreated,
    SeatAbandoned,
    SeatForfeited,
    SeatResigned,
)
from domain.table import is_service_event
from service.core.codec import codec_for
from service.core.ports.command_keys import split_key
from service.core.ports.event_store import EventLog, GameMissing
from service.core.ratings.results import RatedResult, rated_result, seat_players
from service.core.ratings.variants import variant_of

SYSTEM_ID_PREFIX = "sys:"  # the service's own commands (start, cancel, resign, timeouts)


class GameRecords(EventLog, Protocol):
    """A game's events and its seats hash (the store that falls back to the archive)."""

    async def token_hashes(self, game_id: str) -> dict[int, bytes]:
        """Each taken seat's stored value: a token hash, `p:<player>`, or `bot`."""
        ...


class FirstMoves:
    """Which seats' players made a move of their own, and which seats left before theirs.

    A move of a seat's own is a game event tagged with that seat's command key `<seat>:<id>`:
    bots' moves (`bot:...`) and the service's commands (seat -1, `sys:...`) are no one's. A
    game stored before command ids were per seat tags its players' moves with bare ids that
    name no seat: the rule cannot be decided from its record, so it does not apply (its
    rating stays as it was logged).
    """

    def __init__(self) -> None:
        self.moved: set[int] = set()
        self.left_before_moving: list[int] = []
        self.undecidable = False

    def game_event(self, tag: str | None) -> None:
        """A game event appended under command key `tag`."""
        if tag is None:
            return
        split = split_key(tag)
        if split is not None:
            if split[0] >= 0:
                self.moved.add(split[0])
        elif not tag.startswith((BOT_ID_PREFIX, SYSTEM_ID_PREFIX)):
            self.undecidable = True

    def left(self, seat: int) -> None:
        """The seat resigned, forfeited or was abandoned."""
        if seat not in self.moved and seat not in self.left_before_moving:
            self.left_before_moving.append(seat)

    def aborting_seats(self) -> list[int]:
        """The seats that left before their player's first move (none when undecidable)."""
        return [] if self.undecidable else self.left_before_moving


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
    first_moves = FirstMoves()
    for stored in await records.read(game_id, 0, head.version):
        event = codec.decode_event(stored.data)
        if not is_service_event(event):
            state = game.evolve(state, event)
            first_moves.game_event(stored.command_id)
        elif isinstance(event, GameCreated):
            created = event
        elif isinstance(event, SeatResigned | SeatAbandoned | SeatForfeited):
            taken_over.append(event.seat)
            first_moves.left(event.seat)
        elif isinstance(event, GameCancelled):
            cancelled = True
    finished_ms = inbox_ms(head.cursor)
    outcome = None if cancelled or state is None else game.outcome(state)
    if created is None or not created.rated or outcome is None:
        return FinishedGame(game_id, None, finished_ms)
    players = seat_players(await records.token_hashes(game_id))
    variant = variant_of(created.game, created.config)
    result = rated_result(
        game_id,
        created.game,
        variant,
        outcome,
        players,
        taken_over,
        first_moves.aborting_seats(),
    )
    return FinishedGame(game_id, result, finished_ms)
