"""Game-agnostic events the service writes around a game's own events.

A stream is: GameCreated, GameOpened (games a player created), the game's setup events,
TableStarted (once every seat is held), the events of each applied command (a bot's or the
service's own too), and SeedRevealed once the game is over (or GameCancelled, SeedRevealed).
Only the game's own events are folded by `evolve`.
"""

from __future__ import annotations

import msgspec


class GameCreated(msgspec.Struct, tag="GameCreated", tag_field="type", frozen=True):
    """The first event of every stream: what game, under which rules, and the seed commitment."""

    game: str
    rules_version: str
    config: dict[str, object]
    seed_sha256: str  # hex SHA-256 of the secret seed; the seed itself comes at the end
    created_at: str  # ISO 8601, UTC


class SeedRevealed(msgspec.Struct, tag="SeedRevealed", tag_field="type", frozen=True):
    """The last event of a finished game: the seed, so anyone can re-derive every draw."""

    seed_hex: str


class GameOpened(msgspec.Struct, tag="GameOpened", tag_field="type", frozen=True):
    """A game created by a player: it waits for players, refusing commands until started."""

    creator: str  # the creating player's id (public, like a profile)


class TableStarted(msgspec.Struct, tag="TableStarted", tag_field="type", frozen=True):
    """Every seat is held (by players, or by bots the creator asked for): commands now apply."""

    bots: list[int]  # seats a bot plays for the whole game


class GameCancelled(msgspec.Struct, tag="GameCancelled", tag_field="type", frozen=True):
    """Its creator cancelled the game before it started; SeedRevealed follows."""

    by: str  # the creator's player id


LifecycleEvent = GameOpened | TableStarted | GameCancelled
MetaEvent = GameCreated | GameOpened | TableStarted | GameCancelled | SeedRevealed
META_EVENT_TYPES: frozenset[str] = frozenset(
    {"GameCreated", "GameOpened", "TableStarted", "GameCancelled", "SeedRevealed"}
)
