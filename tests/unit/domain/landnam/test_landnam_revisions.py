"""Rules revisions: a game keeps the rules it was set up under. Decisions 27 (a card on the
first move) and 28 (a ship that fled from land is a ship again) came with revision 2; a game
whose LandnamBegun records revision 1, as every game stored before does, keeps the old rules
in exactly those corners, since replay and the fairness check re-derive its commands."""

from __future__ import annotations

import msgspec
from landnam_helpers import SEED, Table, table

from contracts.games.landnam import Chased, LandnamBegun, LandnamConfig, Step, StepSpent
from domain import engine
from domain.chance import Chance
from domain.games.landnam import GAME
from domain.games.landnam.state import CURRENT_REVISION

CONFIG = LandnamConfig(players=3)
EDGE_0 = 0  # the edge q = 4; (4, -2) is one of its non-corner hexes


def test_a_new_game_is_set_up_under_revision_2() -> None:
    opening = GAME.setup(CONFIG, Chance(SEED))
    assert isinstance(opening[0], LandnamBegun)
    assert opening[0].revision == CURRENT_REVISION == 2
    assert engine.fold(GAME, opening).revision == 2


def test_a_setup_event_stored_without_a_revision_decodes_as_revision_1() -> None:
    # Given the bytes an earlier version stored: LandnamBegun had no revision field
    stored = msgspec.msgpack.encode(
        {"type": "LandnamBegun", "players": 3, "first_seat": 2, "max_rounds": 60}
    )
    # When they are decoded as the game's events are
    event = msgspec.msgpack.decode(stored, type=GAME.event_type)
    # Then the game is one of revision 1, and its state says so
    assert event == LandnamBegun(players=3, first_seat=2, max_rounds=60, revision=1)
    assert engine.fold(GAME, [event]).revision == 1


def test_a_stored_game_s_opening_is_set_up_again_under_its_own_revision() -> None:
    # The fairness check re-derives an opening: under the revision its first event records
    old = GAME.setup(CONFIG, Chance(SEED))
    old[0] = msgspec.structs.replace(old[0], revision=1)
    assert engine.setup_as_recorded(GAME, CONFIG, Chance(SEED), old) == old
    new = GAME.setup(CONFIG, Chance(SEED))
    assert engine.setup_as_recorded(GAME, CONFIG, Chance(SEED), new) == new


def first_move_table(revision: int | None, *cards: str) -> Table:
    """Seat 0's ship still on the outer sea with these cards, seat 0 to move."""
    t = table(revision=revision)
    t.state.players[0].started = False
    t.state.players[0].fate = list(cards)  # type: ignore[arg-type]
    return t


def test_revision_1_refuses_a_landing_card_on_the_first_move() -> None:
    # Given a field on an unclaimed edge and a Landing card, in an old game and a new one
    old, new = first_move_table(1, "landing"), first_move_table(None, "landing")
    for t in (old, new):
        t.land((4, -2), "field", 5)
        t.phase("move")
    landing = Step(unit=0, to=(4, -2), fate="landing")
    # Then the old game refuses the card, as it did
    assert landing not in old.legal(0)
    assert old.refuse(0, landing) == "landnam.fate.useless"
    # While a new game lands the ship with it (decision 27)
    assert landing in new.legal(0)
    new.play(0, landing)
    assert (new.state.units[0].at, new.state.units[0].landed) == ((4, -2), True)


def test_revision_1_refuses_a_chase_card_on_the_first_move() -> None:
    # Given seat 1's ship on an edge sea hex, and a Chase card for seat 0's first move
    old, new = first_move_table(1, "chase"), first_move_table(None, "chase")
    for t in (old, new):
        t.land((4, -2), "sea")
        t.land((4, -1), "sea")
        t.state.units[1].at = (4, -2)
        t.phase("move")
    chase = Step(unit=0, to=(4, -2), fate="chase")
    assert old.refuse(0, chase) == "landnam.fate.useless"
    assert any(isinstance(event, Chased) for event in new.play(0, chase))


def test_revision_1_spends_a_first_move_onto_an_outlaw_of_its_colour() -> None:
    # Given seat 1's ship on an edge sea hex with seat 0's red token beside it
    old, new = first_move_table(1), first_move_table(None)
    for t in (old, new):
        t.land((4, -2), "sea")
        t.land((4, -1), "sea")
        t.state.units[1].at = (4, -2)
        t.state.units[1].red = [0]
        t.phase("move")
    step = Step(unit=0, to=(4, -2))
    # Then the old game's first move stays outside (the step spent), the edge claimed
    assert [type(event) for event in old.play(0, step)] == [StepSpent]
    assert old.state.units[0].at is None and EDGE_0 in old.state.claimed_edges
    # While a new game's first move chases it
    assert any(isinstance(event, Chased) for event in new.play(0, step))


def landed_ship_fled_to_sea(revision: int | None) -> tuple[Table, int]:
    """Seat 1's ship on a field, chased by seat 0's settler onto the one free sea hex."""
    t = table(revision=revision)
    for h, n in [((1, 0), 3), ((2, -1), 5)]:
        t.land(h, "field", n)
    t.land((3, -1), "sea")
    chaser = t.unit(0, "settler", (1, 0))
    ship = t.unit(1, "ship", (2, -1))
    t.state.units[ship].landed = True
    t.state.players[0].fate = ["chase"]
    t.phase("move")
    t.play(0, Step(unit=chaser, to=(2, -1), fate="chase"))
    assert t.state.units[ship].at == (3, -1)
    return t, ship


def test_revision_1_keeps_a_ship_that_fled_from_land_a_settler() -> None:
    old, old_ship = landed_ship_fled_to_sea(1)
    new, new_ship = landed_ship_fled_to_sea(None)
    # The old game's ship stays landed, as it did: a settler on the sea hex
    assert (old.state.units[old_ship].landed, old.state.units[old_ship].as_settler) == (True, True)
    # A new game's is a ship again (decision 28)
    assert (new.state.units[new_ship].landed, new.state.units[new_ship].as_settler) == (
        False,
        False,
    )
