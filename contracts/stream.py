"""Game-agnostic events the service writes around a game's own events.

A stream is: GameCreated, the game's setup events, the events of each applied command,
and SeedRevealed once the game is over. Only the game's own events are folded by `evolve`.
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


MetaEvent = GameCreated | SeedRevealed
META_EVENT_TYPES: frozenset[str] = frozenset({"GameCreated", "SeedRevealed"})
