"""Capturing buildings: Houses, Watchtower pairs and Castle groups.

Rules summary "Capture a Building", with the corrections of the Looot README (Rules): a House pays
one tile from each adjacent stack; a new pair of Watchtowers linked by the player's own Vikings pays
one tile from each of the two (each pair once); a group of 4 / 8 / 12 own Vikings touching a Castle
takes its 1st / 2nd / 3rd tile. Building stacks start at 2 / 2 / 3 tiles.
"""

from __future__ import annotations

from looot_helpers import cell, drawn_table

from contracts.games.looot import (
    CastleTaken,
    HouseTaken,
    LoootPlaceViking,
    LoootVikingPlaced,
    WatchtowersLinked,
)

# --- Houses ----------------------------------------------------------------------------

# The Axe space between two Houses, with a Longship below it.
HOUSES = ["HXH", ".O."]


def test_a_viking_takes_one_house_from_each_adjacent_stack() -> None:
    table = drawn_table(HOUSES, market={0: 1})

    events = table.play(LoootPlaceViking(space=cell(1)))

    assert events == [
        LoootVikingPlaced(seat=0, space=cell(1), shields=(), resources=("axe",)),
        HouseTaken(seat=0, house=cell(0)),
        HouseTaken(seat=0, house=cell(2)),
    ]
    assert table.turn.pending == ["axe", "house", "house"]
    assert table.state.stacks == {cell(0): 1, cell(2): 1}


def test_an_empty_house_stack_gives_nothing() -> None:
    table = drawn_table(HOUSES, market={0: 1})
    table.state.stacks[cell(0)] = 0

    events = table.play(LoootPlaceViking(space=cell(1)))

    assert events[1:] == [HouseTaken(seat=0, house=cell(2))]


def test_a_house_must_be_next_to_the_new_viking() -> None:
    table = drawn_table(["OXXH"], market={0: 1})

    far = table.play(LoootPlaceViking(space=cell(1)))
    table.settle().next_turn(1)
    near = table.play(LoootPlaceViking(space=cell(2)))

    assert far == [LoootVikingPlaced(seat=0, space=cell(1), shields=(), resources=("axe",))]
    assert near[1:] == [HouseTaken(seat=1, house=cell(3))]


# --- Watchtowers -------------------------------------------------------------------------

# Towers A and B in the middle row. A touches the top row at column 0 and the bottom row at
# columns 0 and 1; B touches the top row at column 4 and the bottom row at columns 3 and 4.
# The top and bottom rows never touch each other, so each is a separate route from A to B.
TWO_ROUTES = ["XXXXX", "T...T", "XXXXX"]
A, B = cell(0, 1), cell(4, 1)


def test_a_route_of_own_vikings_between_two_towers_takes_one_tile_from_each() -> None:
    table = drawn_table(TWO_ROUTES).vikings(0, cell(0), cell(1), cell(2), cell(3))

    events = table.play(LoootPlaceViking(space=cell(4)))

    assert events[1:] == [WatchtowersLinked(seat=0, towers=(A, B), taken_from=(A, B))]
    assert table.turn.pending == ["axe", "watchtower", "watchtower"]
    assert table.state.stacks == {A: 1, B: 1}


def test_a_second_route_between_the_same_towers_pays_nothing() -> None:
    table = drawn_table(TWO_ROUTES).vikings(0, cell(0), cell(1), cell(2), cell(3))
    table.play(LoootPlaceViking(space=cell(4)))
    table.settle().next_turn(0).vikings(0, cell(0, 2), cell(1, 2), cell(2, 2))

    events = table.play(LoootPlaceViking(space=cell(3, 2)))

    assert events == [LoootVikingPlaced(seat=0, space=cell(3, 2), shields=(), resources=("axe",))]
    assert table.state.stacks == {A: 1, B: 1}


# Towers at 0, 2 and 4 of a line; a Longship below each Axe space between two towers.
THREE_TOWERS = ["TXTXT", ".O.O."]
T0, T2, T4 = cell(0), cell(2), cell(4)


def test_a_tower_pays_again_for_each_new_partner_while_its_stack_lasts() -> None:
    table = drawn_table(THREE_TOWERS, market={0: 1, 1: 2})

    # Seat 0 links T0-T2, seat 1 links T2-T4: T2's stack is then empty
    first = table.play(LoootPlaceViking(space=cell(1)))
    table.settle().next_turn(1)
    second = table.play(LoootPlaceViking(space=cell(3)))
    table.settle().next_turn(0)
    # Seat 0 joins seat 1's space: its own new pair T2-T4 pays only what T4 still holds
    third = table.play(LoootPlaceViking(space=cell(3), occupied_space=True))

    assert first[1:] == [WatchtowersLinked(seat=0, towers=(T0, T2), taken_from=(T0, T2))]
    assert second[1:] == [WatchtowersLinked(seat=1, towers=(T2, T4), taken_from=(T2, T4))]
    assert third[1:] == [WatchtowersLinked(seat=0, towers=(T2, T4), taken_from=(T4,))]
    assert table.state.stacks == {T0: 1, T2: 0, T4: 0}


def test_a_group_reaching_a_third_tower_links_both_new_pairs() -> None:
    # Seat 0's line touches A and B; one more Viking reaches tower C at the far end
    table = drawn_table(["XXXXXXX", "T...T.T"]).vikings(0, *(cell(col) for col in range(6)))
    a, b, c = cell(0, 1), cell(4, 1), cell(6, 1)
    table.player(0).linked_towers.add((a, b))  # paid earlier: one tile from each
    table.state.stacks.update({a: 1, b: 1})

    events = table.play(LoootPlaceViking(space=cell(6)))

    assert sorted(events[1:], key=repr) == sorted(
        [
            WatchtowersLinked(seat=0, towers=(a, c), taken_from=(a, c)),
            WatchtowersLinked(seat=0, towers=(b, c), taken_from=(b, c)),
        ],
        key=repr,
    )
    assert table.state.stacks == {a: 0, b: 0, c: 0}


def test_another_players_vikings_do_not_complete_a_route() -> None:
    table = drawn_table(["OTXXT"], market={0: 1}).vikings(1, cell(2))

    events = table.play(LoootPlaceViking(space=cell(3)))

    assert events == [LoootVikingPlaced(seat=0, space=cell(3), shields=(), resources=("axe",))]


# --- Castles -------------------------------------------------------------------------------

# A Castle at the start of a long line of Axe spaces.
CASTLE_LINE = ["CXXXXXXXXXXXX"]
CASTLE = cell(0)


def test_a_castle_pays_its_tiles_to_a_group_of_4_then_8_then_12() -> None:
    table = drawn_table(CASTLE_LINE).vikings(0, cell(2), cell(3), cell(4))

    # The 4th Viking touches the Castle and completes a group of 4
    at_four = table.play(LoootPlaceViking(space=cell(1)))
    table.settle().next_turn(0).vikings(0, cell(5), cell(6))
    # The group grows to 7: nothing; to 8, far from the Castle: the 2nd tile
    at_seven = table.play(LoootPlaceViking(space=cell(7)))
    table.settle().next_turn(0)
    at_eight = table.play(LoootPlaceViking(space=cell(8)))
    table.settle().next_turn(0).vikings(0, cell(9), cell(10), cell(11))
    at_twelve = table.play(LoootPlaceViking(space=cell(12)))

    assert at_four[1:] == [CastleTaken(seat=0, castle=CASTLE, group_size=4)]
    assert at_seven[1:] == []
    assert at_eight[1:] == [CastleTaken(seat=0, castle=CASTLE, group_size=8)]
    assert at_twelve[1:] == [CastleTaken(seat=0, castle=CASTLE, group_size=12)]
    assert table.state.stacks == {CASTLE: 0}


def test_a_group_of_8_formed_at_once_takes_two_tiles_if_the_stack_has_them() -> None:
    table = drawn_table(CASTLE_LINE).vikings(0, *(cell(col) for col in range(2, 9)))

    events = table.play(LoootPlaceViking(space=cell(1)))

    assert events[1:] == [CastleTaken(seat=0, castle=CASTLE, group_size=8)] * 2


def test_the_castle_stack_limits_what_a_group_takes() -> None:
    table = drawn_table(CASTLE_LINE).vikings(0, *(cell(col) for col in range(2, 9)))
    table.state.stacks[CASTLE] = 1  # another player took two tiles before

    events = table.play(LoootPlaceViking(space=cell(1)))

    assert events[1:] == [CastleTaken(seat=0, castle=CASTLE, group_size=8)]
    assert table.state.stacks == {CASTLE: 0}


def test_a_second_separate_group_of_4_earns_no_more_from_the_same_castle() -> None:
    # A Castle in the middle of a line: a group on each side
    table = drawn_table(["XXXXCXXXX"]).vikings(0, cell(0), cell(1), cell(2))
    first = table.play(LoootPlaceViking(space=cell(3)))
    table.settle().next_turn(0).vikings(0, cell(6), cell(7), cell(8))

    second = table.play(LoootPlaceViking(space=cell(5)))

    assert first[1:] == [CastleTaken(seat=0, castle=cell(4), group_size=4)]
    assert second[1:] == []


def test_each_player_earns_castle_tiles_from_the_shared_stack() -> None:
    table = drawn_table(["XXXXCXXXX"]).vikings(0, cell(0), cell(1), cell(2))
    table.vikings(1, cell(6), cell(7), cell(8))
    table.play(LoootPlaceViking(space=cell(3)))
    table.settle().next_turn(1)

    events = table.play(LoootPlaceViking(space=cell(5)))

    assert events[1:] == [CastleTaken(seat=1, castle=cell(4), group_size=4)]
    assert table.state.stacks == {cell(4): 1}
