"""Final scoring: the Bloodied Axe, Settlements by region, Saga sets per Homeland, the winner."""

from __future__ import annotations

from fire_and_axe_helpers import Table, new_table

from domain.games.fire_and_axe import GAME
from domain.games.fire_and_axe.data import DATA
from domain.games.fire_and_axe.scoring import (
    SHARED_VICTORY,
    TIE_BROKEN_BY_SAGAS,
    bloodied_axe,
    saga_set_points,
    settlement_points,
)
from domain.games.fire_and_axe.state import FireAndAxeState

SWEDISH = [s.id for s in DATA.sagas.values() if s.homeland == "Sweden"]
NORWEGIAN = [s.id for s in DATA.sagas.values() if s.homeland == "Norway"]


def towns(table: Table, seat: int, count: int) -> None:
    table.player(seat).towns = [(f"town {n}", "small", 3) for n in range(count)]


def ended(table: Table) -> FireAndAxeState:
    table.state.ended = True
    table.state.turn = None
    return table.state


def test_the_bloodied_axe_goes_to_the_most_towns() -> None:
    # Red 3 towns, Yellow 4, Blue 5: Blue scores 3 per town
    table = new_table()
    for seat, count in enumerate((3, 4, 5)):
        towns(table, seat, count)
    assert bloodied_axe(table.state) == [0, 0, 15]


def test_tied_leaders_all_take_the_bloodied_axe_but_nobody_without_towns() -> None:
    table = new_table()
    for seat, count in enumerate((4, 4, 1)):
        towns(table, seat, count)
    assert bloodied_axe(table.state) == [12, 12, 0]
    assert bloodied_axe(new_table().state) == [0, 0, 0]


def test_settlements_are_doubled_and_tripled_by_their_region() -> None:
    # Faeroes, Shetland and Orkney all settled: each 2 tripled; Iona alone: 3; Lindisfarne: 2
    table = new_table()
    table.state.settlements |= {"Faeroes": 0, "Shetland": 1, "Orkney": 0, "Iona": 2}
    table.state.settlements |= {"Lindisfarne": 2, "Kiev": 1, "Lubech": 1, "Rome": 0}
    points = settlement_points(table.state)
    assert points == [6 + 6 + 5, 6 + 4 * 2 + 3 * 2, 3 + 2]


def test_saga_sets_the_swedish_example() -> None:
    # Red 1 Swedish Saga, Yellow 4, Blue 3: Yellow 40, Blue 15
    table = new_table()
    table.player(0).sagas = SWEDISH[:1]
    table.player(1).sagas = SWEDISH[1:5]
    table.player(2).sagas = SWEDISH[5:8]
    assert saga_set_points(table.state) == [0, 40, 15]


def test_a_tie_for_most_sagas_leaves_no_second_place() -> None:
    table = new_table(4)
    table.player(0).sagas = SWEDISH[:2]
    table.player(1).sagas = SWEDISH[2:4]
    table.player(2).sagas = SWEDISH[4:5]
    assert saga_set_points(table.state) == [20, 20, 0, 0]


def test_a_tie_for_second_pays_each_and_homelands_score_apart() -> None:
    table = new_table(4)
    table.player(0).sagas = SWEDISH[:3] + NORWEGIAN[:1]
    table.player(1).sagas = SWEDISH[3:4]
    table.player(2).sagas = SWEDISH[4:5] + NORWEGIAN[1:3]
    assert saga_set_points(table.state) == [30 + 5, 5, 5 + 20, 0]


def test_the_outcome_has_a_breakdown_per_rule_and_ranks_the_players() -> None:
    table = new_table()
    assert GAME.outcome(table.state) is None
    table.player(0).points["trade"] = 20
    table.state.settlements["Arles"] = 1
    towns(table, 2, 1)
    outcome = GAME.outcome(ended(table))
    assert outcome is not None
    rules = {"starting_bonus", "trade", "treasure", "saga_bonus"}
    rules |= {"bloodied_axe", "settlements", "saga_sets"}
    for score in outcome.scores:
        assert set(score.breakdown) == rules
        assert score.total == sum(score.breakdown.values())
    top = max(outcome.scores, key=lambda score: score.total)
    assert outcome.winners == [top.seat] and top.seat == 0 and top.rank == 1


def test_a_tie_in_points_goes_to_more_sagas_then_is_shared() -> None:
    # Given seats 0 and 2 on 15 VP each (5 in play + 10 for leading a Homeland's Sagas)
    table = new_table()
    for seat, trade in enumerate((5, 0, 5)):
        table.player(seat).points = {"trade": trade}
    table.player(0).sagas = SWEDISH[:1]
    table.player(2).sagas = NORWEGIAN[:1]
    # Then with as many Sagas each, the victory is shared
    outcome = GAME.outcome(ended(table))
    assert outcome is not None
    assert outcome.winners == [0, 2] and outcome.tie_break == SHARED_VICTORY
    assert [score.rank for score in outcome.scores] == [1, 3, 1]
    # And with 25 VP each but seat 2 holding two Sagas, seat 2 wins
    table.player(0).points = {"trade": 15}
    table.player(2).sagas = NORWEGIAN[:2]
    outcome = GAME.outcome(table.state)
    assert outcome is not None
    assert [score.total for score in outcome.scores] == [25, 0, 25]
    assert outcome.winners == [2] and outcome.tie_break == TIE_BROKEN_BY_SAGAS
