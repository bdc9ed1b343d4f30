"""The players API's messages: a player, their token, their public profile, their games."""

from __future__ import annotations

from typing import Literal

import msgspec

from contracts.api import Request
from contracts.ratings import Rating


class CreatePlayerRequest(Request, frozen=True):
    """Body of POST /players."""

    name: str


class ResignRequest(Request, frozen=True):
    """Optional body of POST /games/{id}/resign: the seat resigned, which must be the
    caller's own (a body naming another seat is refused, never turned into the caller's)."""

    seat: int | None = None


class PlayerToken(msgspec.Struct, frozen=True):
    """A player's id and token (shown once: only its hash is stored)."""

    player_id: str
    token: str


class PlayerProfile(msgspec.Struct, frozen=True):
    """What anyone may see of a player: their name and their ratings (docs/ratings.md)."""

    player_id: str
    name: str
    ratings: list[Rating] = []


GameFilter = Literal["all", "active", "finished", "my_turn"]


class PlayerGame(msgspec.Struct, frozen=True):
    """One of a player's games: their seat, the phase, whose turn and until when."""

    game_id: str
    game: str
    seat: int  # -1: invited to the game (a rematch), no seat taken yet
    phase: str  # open, started, finished, cancelled
    to_act: list[int]
    my_turn: bool
    version: int
    deadline_ms: int | None = None  # when the turn's clock runs out (none without a clock)


class PlayerGames(msgspec.Struct, frozen=True):
    """A page of a player's games, newest joined first; `cursor` fetches the next page."""

    games: list[PlayerGame]
    cursor: str | None = None


class Rematch(msgspec.Struct, frozen=True):
    """The rematch of a finished game: the same game and config, its players invited (it is
    listed among their games, open, for them to take their seats)."""

    game_id: str
    rematch_of: str
