"""The service's own commands on a game's inbox: start, cancel, a deadline passing, resign.

They travel the inbox like a seat's commands, under the seat -1 and command ids a client
cannot choose (`sys:…`, with a colon); their body is the command's JSON. The table engine
(domain.table) decides them; the game's rules never see them.
"""

from __future__ import annotations

import msgspec


class StartGame(msgspec.Struct, tag="start", tag_field="kind", frozen=True):
    """Start the game: every seat is held, by a player or by a bot for the whole game."""

    bots: list[int] = []


class CancelGame(msgspec.Struct, tag="cancel", tag_field="kind", frozen=True, omit_defaults=True):
    """Its creator cancels a game that has not started (or the workers, `by` empty, one that
    waited for its players longer than `open_game_ttl_s`: `reason` "expired")."""

    by: str
    reason: str = ""


class TimeOut(msgspec.Struct, tag="timeout", tag_field="kind", frozen=True):
    """A seat's deadline passed: the one set at version `since` (stale once the seat moved)."""

    seat: int
    since: int


class Resign(msgspec.Struct, tag="resign", tag_field="kind", frozen=True):
    """A seat's player resigns (queued by the service for the seat's authenticated player)."""

    seat: int


SystemCommand = StartGame | CancelGame | TimeOut | Resign
