"""Base classes shared by every game's contracts."""

from __future__ import annotations

import msgspec


class Command(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, frozen=True):
    """A player's intent. Tagged by class name; unknown fields are refused."""


class Event(msgspec.Struct, tag_field="type", frozen=True):
    """A fact in a game's stream. Tagged by class name; unknown fields are tolerated."""


class View(msgspec.Struct, frozen=True):
    """What one seat (or a spectator) may see of a game."""


class GameConfig(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The options a game is created with. Every game's config has a player count."""

    players: int
