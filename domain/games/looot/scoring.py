"""Final scores, with one breakdown entry per scoring rule, and the ranking.

Source: the rules summary ("Game End") and this package's README (Rules, Scoring):
for each type, (base value + bonuses of the player's filled Longships of that type) x the
player's tiles of that type; plus completed construction sites and the Trophy; minus 5 per
unfilled Longship. Ties: the highest Trophy wins; otherwise the victory is shared.
"""

from __future__ import annotations

from collections import Counter

from contracts.games.looot import Tile
from contracts.outcome import Outcome, PlayerScore
from domain.games.looot.components import (
    BASE_VALUES,
    LONGSHIPS,
    TROPHY_POINTS,
    UNFILLED_LONGSHIP_PENALTY,
    site_card,
)
from domain.games.looot.state import LoootState, PlayerState

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


def rank_key(total: int, player: PlayerState) -> tuple[int, int]:
    """Decision 14 in this package's README: players rank by points, then by Trophy; equal on both
    share a rank.

    The tie-break of the rules ("the player with the highest valued Trophy wins"; "if
    neither hold a Trophy, share the victory") is applied to every place, not only the first.
    """
    return (total, trophy_points(player))


def outcome(state: LoootState) -> Outcome | None:
    """Final scores and ranking once every Viking is placed; None before."""
    if state.turn is not None:
        return None
    points = [breakdown(player) for player in state.players]
    totals = [sum(entry.values()) for entry in points]
    keys = [rank_key(total, player) for total, player in zip(totals, state.players, strict=True)]
    scores = [
        PlayerScore(
            seat=seat,
            total=totals[seat],
            breakdown=points[seat],
            rank=1 + sum(1 for other in keys if other > keys[seat]),
        )
        for seat in range(len(state.players))
    ]
    winners = [score.seat for score in scores if score.rank == 1]
    tied_on_points = sum(1 for total in totals if total == max(totals)) > 1
    tie_break = ""
    if len(winners) > 1:
        tie_break = SHARED_VICTORY
    elif tied_on_points:
        tie_break = TIE_BROKEN_BY_TROPHY
    return Outcome(scores=scores, winners=winners, tie_break=tie_break)
