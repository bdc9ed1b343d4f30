"""The components: the designed counts of components.json and the facts of the rule book.

components.json is provisional (see this package's README, data provenance): it holds every
count; the kinds (terrains, resources, fate cards) and their effects are code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final, cast

from contracts.games.landnam import BuildKind, FateKind, Resource, Terrain

_DATA = json.loads((Path(__file__).parent / "components.json").read_text())

RESOURCES: Final[tuple[Resource, ...]] = ("iron", "grain", "timber", "wool")
TERRAINS: Final[tuple[Terrain, ...]] = ("sea", "bog", "field", "pasture", "forest", "mountain")
# Terrain to resource: bog iron, field grain, pasture wool, forest timber.
PRODUCES: Final[dict[Terrain, Resource]] = {
    "bog": "iron",
    "field": "grain",
    "pasture": "wool",
    "forest": "timber",
}
NUMBERED: Final[frozenset[Terrain]] = frozenset(PRODUCES)

ISLAND_RADIUS: Final[int] = int(_DATA["island_radius"])
TERRAIN_STOCK: Final[dict[Terrain, int]] = {
    cast(Terrain, t): int(n) for t, n in _DATA["terrain_stock"].items()
}
NUMBER_TOKENS: Final[dict[int, int]] = {int(v): int(n) for v, n in _DATA["number_tokens"].items()}
HARBOUR_MARKERS: Final[dict[Resource, int]] = {
    cast(Resource, r): int(n) for r, n in _DATA["harbour_markers"].items()
}
RESOURCE_CARDS: Final[int] = int(_DATA["resource_cards"])
STARTING_CARDS: Final[int] = int(_DATA["starting_cards"])
SHIPS: Final[int] = int(_DATA["pieces"]["ship"])
SETTLERS: Final[int] = int(_DATA["pieces"]["settler"])
HOUSES: Final[int] = int(_DATA["pieces"]["house"])
VICTORY_POINTS: Final[int] = int(_DATA["victory_points"])
OFFERS_PER_TURN: Final[int] = int(_DATA["offers_per_turn"])
MAX_OFFER_CARDS: Final[int] = int(_DATA["max_offer_cards"])
FATE_DECK: Final[dict[FateKind, int]] = {
    cast(FateKind, k): int(n) for k, n in _DATA["fate_deck"].items()
}

# The sub-phase each fate card is marked with.
FIND: Final[dict[FateKind, Terrain]] = {
    "find_bog": "bog",
    "find_field": "field",
    "find_pasture": "pasture",
    "find_forest": "forest",
}
EXPLORATION_CARDS: Final[frozenset[FateKind]] = frozenset(FIND)
EXTRA_STEPS: Final[dict[FateKind, int]] = {"fair_going_1": 1, "fair_going_2": 2}
MOVEMENT_CARDS: Final[frozenset[FateKind]] = frozenset({"landing", "chase", *EXTRA_STEPS})
HARVEST_CARDS: Final[frozenset[FateKind]] = frozenset({"good_year", "shift", "fallow"})
ALTHING_CARDS: Final[frozenset[FateKind]] = frozenset({"pardon", "adjourn", "dissolve"})
FATE_KINDS: Final[tuple[FateKind, ...]] = tuple(sorted(FATE_DECK))

COSTS: Final[dict[BuildKind, dict[Resource, int]]] = {
    "farm": {"grain": 1, "timber": 1, "wool": 1},
    "town": {"iron": 1, "grain": 1, "timber": 1, "wool": 2},
    "settler": {"iron": 1, "grain": 1},
    "ship": {"iron": 1, "timber": 1},
}
HARBOUR_COST: Final[int] = 2
AGING_COST: Final[int] = 1
STOCK_RATE: Final[int] = 4
HARBOUR_RATE: Final[int] = 2

# Aging order: 2..6, 8..12, then back to 2 (rules: "6 is followed by 8 and 12 by 2").
AGING_ORDER: Final[tuple[int, ...]] = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)


def exploration_terrain(value: int) -> Terrain:
    """The exploration table: the modified green die to a terrain."""
    if value <= 4:
        return "sea"
    if value == 5:
        return "bog"
    if value == 6:
        return "field"
    if value <= 9:
        return "pasture"
    if value == 10:
        return "forest"
    return "mountain"


def red_die_number(face: int) -> int:
    """The red die's face to a number token: 1 is 11, 7 is 12, any other face itself."""
    return {1: 11, 7: 12}.get(face, face)


def next_number(value: int, stock: dict[int, int]) -> int:
    """Decision 4: the next value after `value` in aging order that is in stock (itself if none)."""
    start = AGING_ORDER.index(value)
    for offset in range(1, len(AGING_ORDER)):
        candidate = AGING_ORDER[(start + offset) % len(AGING_ORDER)]
        if stock.get(candidate, 0) > 0:
            return candidate
    return value
