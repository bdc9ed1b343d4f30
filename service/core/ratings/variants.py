"""Which ratings a game's result counts towards: the game and its variant.

A variant is the part of a game's config that makes it a different game to be good at; the
player count is not part of it (a rating follows the player from two seats to five). Each game
says which of its options make one (`rating_variant` of the game the registry names; the
choices are documented in docs/ratings.md), so no game name is spelled here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from domain.games import get_game

STANDARD = "standard"
VARIANT_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")


def variant_of(game: str, config: Mapping[str, object]) -> str:
    """The variant a game with this config is rated in (as its registered game says)."""
    try:
        rating_variant = getattr(get_game(game), "rating_variant", None)
    except KeyError:
        return STANDARD  # a game no longer installed: its results keep one pool
    if rating_variant is None:  # a plugin game written before games named their variants
        return STANDARD
    return str(rating_variant(config))


def default_variant(game: str) -> str:
    """The variant a leaderboard shows when none is asked for: the default config's."""
    return variant_of(game, {})


def rating_key(game: str, variant: str) -> str:
    """The one string naming a game and variant (game names hold no slash)."""
    return f"{game}/{variant}"


def split_rating_key(key: str) -> tuple[str, str]:
    """The game and variant of a rating key."""
    game, _, variant = key.partition("/")
    return game, variant
