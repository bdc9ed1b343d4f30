"""Which ratings a game's result counts towards: the game and its variant.

A variant is the part of a game's config that makes it a different game to be good at; the
player count is not part of it (a rating follows the player from two seats to five). Each
game's choice is documented in docs/ratings.md.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

STANDARD = "standard"
VARIANT_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")
LANDNAM_ROUNDS = 60  # the rule book's length; a shorter or longer game is its own variant
FIRE_AND_AXE_ROUNDS = 60


def variant_of(game: str, config: Mapping[str, object]) -> str:
    """The variant a game with this config is rated in."""
    if game == "fjords":
        return str(config.get("variant", "base"))
    if game == "landnam":
        rounds = config.get("max_rounds", LANDNAM_ROUNDS)
        return STANDARD if rounds == LANDNAM_ROUNDS else f"rounds-{rounds}"
    if game == "fire_and_axe":
        parts = []
        if config.get("conflict_runes", True) is False:
            parts.append("no-conflict-runes")
        rounds = config.get("round_limit", FIRE_AND_AXE_ROUNDS)
        if rounds is None:
            parts.append("no-round-limit")
        elif rounds != FIRE_AND_AXE_ROUNDS:
            parts.append(f"rounds-{rounds}")
        return "-".join(parts) or STANDARD
    return STANDARD  # Looot (its faces are set-up, not rules) and any game added later


def default_variant(game: str) -> str:
    """The variant a leaderboard shows when none is asked for."""
    return "base" if game == "fjords" else STANDARD


def rating_key(game: str, variant: str) -> str:
    """The one string naming a game and variant (game names hold no slash)."""
    return f"{game}/{variant}"


def split_rating_key(key: str) -> tuple[str, str]:
    """The game and variant of a rating key."""
    game, _, variant = key.partition("/")
    return game, variant
