"""A card on the first move (decision 27 in the Landnám README) and a landed ship that flees
(decision 28)."""

from __future__ import annotations

from landnam_helpers import Table, table, vertex_of

from contracts.games.landnam import BuildHarbour, Chased, Flee, Step, StepSpent, UnitFled
from domain.games.landnam.cases import open_cases

EDGE_0 = 0  # the edge q = 4; (4, -2) is one of its non-corner hexes


def test_a_landing_card_lands_the_first_move_on_an_edge_field() -> None:
    # Given seat 0's ship still on the outer sea, a field on an unclaimed edge, and a Landing card
    t = table()
    t.state.players[0].started = False
    t.land((4, -2), "field", 5)
    t.state.players[0].fate = ["landing"]
    t.phase("move")
    assert Step(unit=0, to=(4, -2), fate="landing") in t.legal(0)
    # When the first move plays it
    t.play(0, Step(unit=0, to=(4, -2), fate="landing"))
    # Then the ship is on land, the card spent, and the edge claimed
    ship = t.state.units[0]
    assert (ship.at, ship.landed) == ((4, -2), True)
    assert t.state.players[0].fate == [] and t.state.discards == ["landing"]
    assert EDGE_0 in t.state.claimed_edges and t.state.players[0].started


def test_without_a_card_the_first_move_onto_land_is_spent_outside() -> None:
    t = table()
    t.state.players[0].started = False
    t.land((4, -2), "field", 5)
    t.phase("move")
    events = t.play(0, Step(unit=0, to=(4, -2)))
    assert [type(e) for e in events] == [StepSpent]
    assert t.state.units[0].at is None and EDGE_0 in t.state.claimed_edges


def test_a_chase_card_on_the_first_move_chases_the_unit_on_the_edge_hex() -> None:
    # Given seat 1's ship on an edge sea hex with one way out, and seat 0 to make its first move
    t = table()
    t.state.players[0].started = False
    t.land((4, -2), "sea")
    t.land((4, -1), "sea")
    t.state.units[1].at = (4, -2)
    t.state.players[0].fate = ["chase"]
    t.phase("move")
    # When seat 0's ship chases it with the card
    events = t.play(0, Step(unit=0, to=(4, -2), fate="chase"))
    # Then the ship is chased out, seat 0's ship enters, and the first move claims the edge
    assert any(isinstance(e, Chased) for e in events)
    assert t.state.units[1].at == (4, -1) and t.state.units[0].at == (4, -2)
    assert EDGE_0 in t.state.claimed_edges and t.state.players[0].started
    # And a useless card on a first move is still refused
    t2 = table()
    t2.state.players[0].started = False
    t2.land((4, -2), "sea")
    t2.state.players[0].fate = ["chase", "landing"]
    t2.phase("move")
    assert t2.refuse(0, Step(unit=0, to=(4, -2), fate="chase")) == "landnam.fate.no_chase"
    assert t2.refuse(0, Step(unit=0, to=(4, -2), fate="landing")) == "landnam.fate.useless"


def landed_ship_chased_to_sea() -> tuple[Table, int]:
    """Seat 1's ship on a field by seat 0's farm, chased by seat 0 onto the one free sea hex."""
    t = table()
    for h, n in [((1, 0), 3), ((2, -1), 5)]:
        t.land(h, "field", n)
    t.land((3, -1), "sea")
    chaser = t.unit(0, "settler", (1, 0))
    ship = t.unit(1, "ship", (2, -1))
    t.state.units[ship].landed = True
    t.state.players[0].fate = ["chase"]
    t.phase("move")
    events = t.play(0, Step(unit=chaser, to=(2, -1), fate="chase"))
    assert UnitFled(unit=ship, to=(3, -1)) in events
    return t, ship


def test_a_landed_ship_that_flees_to_sea_is_a_ship_again_and_may_build_a_harbour() -> None:
    # Given seat 1's ship on land, chased onto a sea hex bordering the field
    t, ship = landed_ship_chased_to_sea()
    unit = t.state.units[ship]
    # Then it is no longer on land, so no settler
    assert (unit.at, unit.landed, unit.as_settler) == ((3, -1), False, False)
    # And on seat 1's turn it may establish a harbour there
    t.phase("trade", seat=1)
    t.hand(1, wool=2)
    t.play(1, BuildHarbour(unit=ship, resource="wool"))
    assert [p.kind for p in t.state.turn.pending] == ["harbour"]


def test_a_landed_ship_that_fled_into_a_harbour_is_sued_as_a_ship_there() -> None:
    # Given the fled ship's sea hex is a harbour, with seat 0's farm at a corner
    t, ship = landed_ship_chased_to_sea()
    t.state.harbours[(3, -1)] = "iron"
    t.house(0, vertex_of((3, -1), 0))
    # Then seat 0 may sue it for the harbour's resource, as any ship in a harbour
    assert [(c.plaintiff, c.unit, c.resource) for c in open_cases(t.state)] == [(0, ship, "iron")]


def test_a_chased_ship_picks_its_way_out() -> None:
    # Given a landed ship with two ways out: both are offered to its owner
    t = table()
    for h, n in [((1, 0), 3), ((2, -1), 5)]:
        t.land(h, "field", n)
    t.land((3, -1), "sea")
    t.land((3, -2), "sea")
    chaser = t.unit(0, "settler", (1, 0))
    ship = t.unit(1, "ship", (2, -1))
    t.state.units[ship].landed = True
    t.state.players[0].fate = ["chase"]
    t.phase("move")
    t.play(0, Step(unit=chaser, to=(2, -1), fate="chase"))
    assert set(t.legal(1)) == {Flee(to=(3, -1)), Flee(to=(3, -2))}
    t.play(1, Flee(to=(3, -2)))
    assert (t.state.units[ship].at, t.state.units[ship].landed) == ((3, -2), False)
