"""Final scores, with one breakdown entry per scoring rule, and the ranking.

In play: the starting bonus, Trades, treasures and Saga bonus VP. At the end: the Bloodied
Axe, Settlements by region, and Saga sets per Homeland (decisions 13 and 14 in this
package's README).
"""

from __future__ import annotations

from contracts.outcome import Outcome
from domain.games.fire_and_axe.data import AXE_POINTS_PER_TOWN, DATA, SAGA_SET_POINTS
from domain.games.fire_and_axe.state import FireAndAxeState
from domain.kernel.ranking import ranked

IN_PLAY_RULES = ("starting_bonus", "trade", "treasure", "saga_bonus")
TIE_BROKEN_BY_SAGAS = "more saga cards"
SHARED_VICTORY = "shared victory"


def bloodied_axe(state: FireAndAxeState) -> list[int]:
    """3 VP per town to the players with the most towns (at least one), ties included."""
    towns = [len(player.towns) for player in state.players]
    most = max(towns)
    return [AXE_POINTS_PER_TOWN * count if count == most and most > 0 else 0 for count in towns]


def settlement_points(state: FireAndAxeState) -> list[int]:
    """Each Settlement its port value, doubled or tripled by the settled ports of its region
    (anyone's); independent and large ports never multiplied."""
    points = [0] * len(state.players)
    for port, owner in state.settlements.items():
        region = DATA.ports[port].region
        factor = 1
        if region is not None:
            factor = sum(1 for mate in DATA.regions[region] if mate in state.settlements)
        points[owner] += DATA.ports[port].value * factor
    return points


def saga_set_points(state: FireAndAxeState) -> list[int]:
    """Per Homeland: 10 per Saga to the most (ties all 10, then no second), 5 per Saga to the
    second-most (ties all 5); no points without a Saga of that Homeland."""
    points = [0] * len(state.players)
    first, second = SAGA_SET_POINTS
    for homeland in DATA.homelands:
        held = [
            sum(1 for saga in player.sagas if DATA.sagas[saga].homeland == homeland)
            for player in state.players
        ]
        counts = sorted({count for count in held if count > 0}, reverse=True)
        if not counts:
            continue
        leaders = [seat for seat, count in enumerate(held) if count == counts[0]]
        for seat in leaders:
            points[seat] += first * held[seat]
        if len(leaders) == 1 and len(counts) > 1:
            for seat, count in enumerate(held):
                if count == counts[1]:
                    points[seat] += second * count
    return points


def breakdowns(state: FireAndAxeState) -> list[dict[str, int]]:
    """The points each rule gives each player."""
    axe, settled, sets = bloodied_axe(state), settlement_points(state), saga_set_points(state)
    result = []
    for seat, player in enumerate(state.players):
        entry = {rule: player.points.get(rule, 0) for rule in IN_PLAY_RULES}
        entry |= {"bloodied_axe": axe[seat], "settlements": settled[seat], "saga_sets": sets[seat]}
        result.append(entry)
    return result


def outcome(state: FireAndAxeState) -> Outcome | None:
    """Final scores and ranking once the game is over; None before."""
    if not state.ended:
        return None
    return ranked(
        breakdowns(state),
        [(len(player.sagas),) for player in state.players],
        shared_victory=SHARED_VICTORY,
        tie_broken=TIE_BROKEN_BY_SAGAS,
    )
