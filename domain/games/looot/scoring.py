"""Final scores, with one breakdown entry per scoring rule, and the ranking.

Source: the rules summary ("Game End") and this package's README (Rules, Scoring):
for each type, (base value + bonuses of the player's filled Longships of that type) x the
player's tiles of that type; plus completed construction sites and the Trophy; minus 5 per
unfilled Longship. Ties: the highest Trophy wins; otherwise the victory is shared.
"""

from __future__ import annotations

from collections import Counter

from contracts.games.looot import Tile
from contracts.outcome import Outcome
from domain.games.looot.components import (
    BASE_VALUES,
    LONGSHIPS,
    TROPHY_POINTS,
    UNFILLED_LONGSHIP_PENALTY,
    site_card,
)
from domain.games.looot.state import LoootState, PlayerState
from domain.kernel.ranking import ranked

# The tile types that score, in breakdown order (Axes are worth nothing at the end).
SCORED_TILES: tuple[Tile, ...] = ("wood", "sheep", "gold", "house", "watchtower", "castle")
TIE_BROKEN_BY_TROPHY = "highest trophy"
SHARED_VICTORY = "shared victory"


def breakdown(player: PlayerState) -> dict[str, int]:
    """The points each scoring rule gives a player."""
    counts = Counter(player.tiles.values())
    bonuses: Counter[Tile] = Counter()
    for ship in player.filled:
        bonuses[LONGSHIPS[ship].boosts] += LONGSHIPS[ship].bonus
    points: dict[str, int] = {
        tile: (BASE_VALUES[tile] + bonuses[tile]) * counts[tile] for tile in SCORED_TILES
    }
    points["construction_sites"] = sum(
        site_card(site, player.sites[site]).points for site in player.completed
    )
    points["trophy"] = trophy_points(player)
    unfilled = sum(1 for ship in player.longships.values() if ship not in player.filled)
    points["unfilled_longships"] = -UNFILLED_LONGSHIP_PENALTY * unfilled
    return points


def trophy_points(player: PlayerState) -> int:
    """The points of the player's Trophy (0 without one)."""
    return 0 if player.trophy is None else TROPHY_POINTS[player.trophy]


def outcome(state: LoootState) -> Outcome | None:
    """Final scores and ranking once every Viking is placed; None before.

    Decision 14 in this package's README: players rank by points, then by Trophy; equal on both
    share a rank. The tie-break of the rules ("the player with the highest valued Trophy wins";
    "if neither hold a Trophy, share the victory") is applied to every place, not only the first.
    """
    if state.turn is not None:
        return None
    return ranked(
        [breakdown(player) for player in state.players],
        [(trophy_points(player),) for player in state.players],
        shared_victory=SHARED_VICTORY,
        tie_broken=TIE_BROKEN_BY_TROPHY,
    )
