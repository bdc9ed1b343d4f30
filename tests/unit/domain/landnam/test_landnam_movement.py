"""Phase 2: steps, first moves, mountains, the outer sea, exploration and chasing
(decisions 3, 5 to 9)."""

from __future__ import annotations

from landnam_helpers import draw_index_giving, hand_of, table, vertex_of

from contracts.games.landnam import EndMovement, Explored, Flee, PlayFate, Step, UnitRemoved
from domain.games.landnam.movement import exploration_modifier


def test_two_normal_steps_then_only_extra_steps_of_a_fair_going_card() -> None:
    # Given seat 0's ship on explored sea
    t = table()
    for h in [(1, 0), (2, 0), (3, 0), (4, -1)]:
        t.land(h, "sea")
    ship = t.unit(0, "ship", (1, 0))
    t.state.players[0].fate = ["fair_going_1"]
    t.phase("move")
    # When it takes two steps, a third is refused
    t.play(0, Step(unit=ship, to=(2, 0)))
    t.play(0, Step(unit=ship, to=(3, 0)))
    assert t.refuse(0, Step(unit=ship, to=(4, -1))) == "landnam.move.no_steps"
    # Then Fair going gives one more
    t.play(0, PlayFate(card="fair_going_1", unit=ship))
    t.play(0, Step(unit=ship, to=(4, -1)))
    assert t.state.units[ship].at == (4, -1)


def test_entering_the_outer_sea_ends_movement() -> None:
    t = table()
    t.land((4, -1), "sea")
    ship = t.unit(0, "ship", (4, -1))
    t.phase("move")
    t.play(0, Step(unit=ship, to=None))
    assert t.state.units[ship].at is None and t.state.turn.phase == "trade"


def test_the_first_move_goes_to_a_non_corner_hex_of_an_unclaimed_edge() -> None:
    # Given seat 0 has not moved yet, and edge 0 (q = 4) is claimed
    t = table()
    t.state.players[0].started = False
    t.state.claimed_edges = {0}
    t.phase("move")
    # Then a corner, a claimed edge, and ending movement are refused
    assert t.refuse(0, Step(unit=0, to=(4, 0))) == "landnam.move.first_move"
    assert t.refuse(0, Step(unit=0, to=(4, -2))) == "landnam.move.first_move"
    assert t.refuse(0, EndMovement()) == "landnam.move.first_move"
    # When it explores a hex of edge 2 (r = 4), it claims that edge even if it cannot enter
    t.play(0, Step(unit=0, to=(-2, 4)))
    assert 2 in t.state.claimed_edges and t.state.players[0].started


def test_a_settler_enters_a_mountain_only_when_outlawed_or_with_landing() -> None:
    t = table()
    t.land((1, 0), "field", 4)
    settler = t.unit(0, "settler", (1, 0))
    t.phase("move")
    assert t.refuse(0, Step(unit=settler, to=(0, 0))) == "landnam.move.cannot_enter"
    t.state.players[0].fate = ["landing"]
    t.play(0, Step(unit=settler, to=(0, 0), fate="landing"))
    assert t.state.units[settler].at == (0, 0)
    # And an outlawed settler needs no card
    t2 = table()
    t2.land((1, 0), "field", 4)
    outlaw = t2.unit(0, "settler", (1, 0), red=(1,))
    t2.phase("move")
    t2.play(0, Step(unit=outlaw, to=(0, 0)))
    assert t2.state.units[outlaw].at == (0, 0)
    # And ending its movement on a mountain discards its red tokens: no longer outlawed
    t2.play(0, EndMovement())
    assert t2.state.units[outlaw].red == []


def test_exploration_modifier_counts_mountains_twice_and_stops_at_four() -> None:
    t = table()
    assert exploration_modifier(t.state, (1, 0)) == 2  # the central mountain
    t.land((2, -1), "field", 3)
    assert exploration_modifier(t.state, (1, 0)) == 3
    t.land((1, 1), "sea")
    assert exploration_modifier(t.state, (1, 0)) == 3  # sea adds nothing
    t.land((2, 0), "mountain")
    assert exploration_modifier(t.state, (1, 0)) == 4


def test_exploring_rolls_a_terrain_a_number_and_pays_its_resource() -> None:
    # Given a ship beside an unexplored hex, and a green roll of 7 (pasture with modifier 0)
    t = table()
    t.land((3, 0), "sea")
    ship = t.unit(0, "ship", (3, 0))
    t.phase("move")
    green = draw_index_giving(t, 7, 10)
    t.state.draws = green
    # When it explores (4, -1): no explored land around it
    events = t.play(0, Step(unit=ship, to=(4, -1)))
    explored = next(e for e in events if isinstance(e, Explored))
    # Then the hex is pasture with the red die's number, the explorer gets a wool, and the ship
    # cannot enter land: the step is spent
    assert explored.greens == (7,) and explored.terrain == "pasture"
    face = 1 + t.chance.below(green + 1, 10)
    assert explored.number == {1: 11, 7: 12}.get(face, face)
    assert hand_of(t, 0)["wool"] == 1
    assert t.state.units[ship].at == (3, 0) and t.state.turn.steps_used == 1


def test_an_empty_terrain_stack_rerolls_the_green_die() -> None:
    # Given no sea left, and a first green roll of 2 (sea)
    t = table()
    t.land((3, 0), "sea")
    ship = t.unit(0, "ship", (3, 0))
    t.state.terrain_stock["sea"] = 0
    t.phase("move")
    t.state.draws = draw_index_giving(t, 2, 10)
    events = t.play(0, Step(unit=ship, to=(4, -1)))
    explored = next(e for e in events if isinstance(e, Explored))
    # Then the die was rolled again until a terrain in stock came up
    assert explored.greens[0] == 2 and len(explored.greens) >= 2
    assert explored.terrain != "sea"


def test_an_exploration_card_fixes_the_terrain_and_a_mountain_pays_a_fate_card() -> None:
    t = table()
    t.land((3, 0), "sea")
    ship = t.unit(0, "ship", (3, 0))
    t.state.players[0].fate = ["find_forest"]
    t.state.deck.remove("find_forest")
    t.phase("move")
    t.play(0, Step(unit=ship, to=(4, -1), fate="find_forest"))
    assert t.state.terrain[(4, -1)] == "forest" and hand_of(t, 0)["timber"] == 1
    # And a mountain found (every other stack empty) pays a fate card instead
    for terrain in ("sea", "bog", "field", "pasture", "forest"):
        t.state.terrain_stock[terrain] = 0
    t.play(0, Step(unit=ship, to=(4, 0)))
    assert t.state.terrain[(4, 0)] == "mountain"
    assert len(t.state.players[0].fate) == 1


def test_chasing_an_outlaw_with_one_way_out_moves_it_there() -> None:
    # Given seat 1's outlawed settler (red token of seat 0) on a field with one free field
    t = table()
    for h, n in [((1, 0), 3), ((2, 0), 4), ((2, -1), 5)]:
        t.land(h, "field", n)
    chaser = t.unit(0, "settler", (1, 0))
    victim = t.unit(1, "settler", (2, -1), red=(0,))
    t.phase("move")
    # When seat 0 steps into its hex
    t.play(0, Step(unit=chaser, to=(2, -1)))
    # Then it flees to the only vacant field that is not the chaser's origin
    assert t.state.units[victim].at == (2, 0)
    assert t.state.units[chaser].at == (2, -1)
    # And its red token is discarded: no farm of seat 0 beside its new hex
    assert t.state.units[victim].red == []


def test_a_chased_unit_with_no_way_out_leaves_play_and_its_token_is_awarded() -> None:
    t = table()
    t.land((1, 0), "field", 3)
    t.land((2, -1), "field", 5)
    chaser = t.unit(0, "settler", (1, 0))
    victim = t.unit(1, "settler", (2, -1), red=(0,))
    t.phase("move")
    events = t.play(0, Step(unit=chaser, to=(2, -1)))
    assert any(isinstance(e, UnitRemoved) for e in events)
    assert victim not in t.state.units and t.state.players[0].red == 1


def test_a_chase_card_chases_any_other_unit_and_its_owner_picks_the_way_out() -> None:
    t = table()
    for h, n in [((1, 0), 3), ((2, -1), 5), ((3, -1), 4), ((3, -2), 6)]:
        t.land(h, "field", n)
    chaser = t.unit(0, "settler", (1, 0))
    victim = t.unit(1, "settler", (2, -1))
    t.phase("move")
    assert t.refuse(0, Step(unit=chaser, to=(2, -1))) == "landnam.move.occupied"
    t.state.players[0].fate = ["chase"]
    t.play(0, Step(unit=chaser, to=(2, -1), fate="chase"))
    # Then seat 1 alone acts, choosing among its ways out
    assert GAME_to_act(t) == [1]
    assert set(t.legal(1)) == {Flee(to=(3, -1)), Flee(to=(3, -2))}
    t.play(1, Flee(to=(3, -2)))
    assert t.state.units[victim].at == (3, -2) and t.state.turn.phase == "move"


def GAME_to_act(t) -> list[int]:  # type: ignore[no-untyped-def]
    from domain.games.landnam import GAME

    return GAME.to_act(t.state)


def test_vertex_helper_names_a_corner() -> None:
    assert (1, 0) in vertex_of((1, 0), 2)
