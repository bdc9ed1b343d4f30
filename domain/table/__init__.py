"""The table engine: the rules the service plays around every game, pure.

A table is one game as the service plays it (`state.Table`): the game's own state and, around
it, the life cycle (open, started, cancelled), who holds each seat (a player, or a bot for the
whole game or since the seat resigned, was abandoned or forfeited), the turn timer's policy and
deadlines, and the stream version. `decide.decide(table, command, now_ms)` decides one command
(a seat's, through the game's own engine, or the service's own: `system`) into the events to
record, each with its command id, and the command's outcome; `state.evolve` follows one
recorded event, so folding a stream gives the table that decided it. No I/O, no clock (the
time is an argument): the same functions decide in any process.
"""

from domain.table.decide import (
    Applied,
    Deadline,
    Decision,
    Recorded,
    Refused,
    TableCommand,
    Undecodable,
    decide,
)
from domain.table.state import Phase, Table, evolve, fold, is_service_event
from domain.table.system import CANCEL_ID, START_ID, SYSTEM_SEAT, resign_id, timeout_id

__all__ = [
    "CANCEL_ID",
    "START_ID",
    "SYSTEM_SEAT",
    "Applied",
    "Deadline",
    "Decision",
    "Phase",
    "Recorded",
    "Refused",
    "Table",
    "TableCommand",
    "Undecodable",
    "decide",
    "evolve",
    "fold",
    "is_service_event",
    "resign_id",
    "timeout_id",
]
