"""The Fjord: construction sites, Longships, Trophies, and a full Fjord.

Rules summary: "Complete a Construction Site", "Select a
Longship", "Claim a Trophy"; the Looot README: the Fjord's spaces, the site and Longship cards, "At
most one Longship taken per turn, at the end of the turn; refill the ocean from the bag",
"when the Fjord is full further tiles are lost". Fjord spaces are printed (x, y); the scenario
boards give every seat the first card of each site: Port HHS (5), Altar HHTX (7), Jarl
Palace THHCG (9).
"""

from __future__ import annotations

from looot_helpers import CASTLE_XXW, SEED, WOOD_XXW, cell, drawn_table

from contracts.games.looot import (
    ClaimTrophy,
    LongshipDrawn,
    LongshipFilled,
    LongshipTaken,
    LoootPlaceTile,
    LoootPlaceViking,
    LoootTilePlaced,
    LoootVikingPlaced,
    SiteCompleted,
    TakeLongship,
    TilesLost,
    TrophyClaimed,
)
from domain.chance import Chance
from domain.games.looot.fjord import TILE_SPACES

SHORE = ["OXSWX"]
# The Port is printed at (5, 1), an odd column: of its neighbours, (5, 0) and (6, 0) are off
# the board, and (4, 0), (4, 1), (5, 2), (6, 1) are tile spaces.
PORT_SIDES = [cell(4, 0), cell(4, 1), cell(5, 2), cell(6, 1)]
# A Longship at (3, 3), an odd column, has six tile spaces around it.
MIDDLE = cell(3, 3)
AROUND_MIDDLE = [cell(3, 2), cell(3, 4), cell(2, 2), cell(2, 3), cell(4, 2), cell(4, 3)]


# --- Construction sites --------------------------------------------------------------------


def test_a_site_completes_when_its_needs_surround_it_in_any_arrangement() -> None:
    table = drawn_table(SHORE).fjord(0, {PORT_SIDES[3]: "house", PORT_SIDES[0]: "house"})
    table.gained("sheep")

    events = table.play(LoootPlaceTile(tile="sheep", space=PORT_SIDES[2]))

    assert events == [
        LoootTilePlaced(seat=0, tile="sheep", space=PORT_SIDES[2]),
        SiteCompleted(seat=0, site="port", points=5),
    ]
    assert table.player(0).completed == {"port"}


def test_a_site_needs_as_many_of_an_item_as_it_shows() -> None:
    table = drawn_table(SHORE).fjord(0, {PORT_SIDES[0]: "house", PORT_SIDES[1]: "sheep"})
    table.gained("sheep", "house")

    second_sheep = table.play(LoootPlaceTile(tile="sheep", space=PORT_SIDES[2]))
    second_house = table.play(LoootPlaceTile(tile="house", space=PORT_SIDES[3]))

    assert second_sheep == [LoootTilePlaced(seat=0, tile="sheep", space=PORT_SIDES[2])]
    assert second_house[1:] == [SiteCompleted(seat=0, site="port", points=5)]


def test_a_tile_away_from_the_site_does_not_count() -> None:
    table = drawn_table(SHORE).fjord(0, {PORT_SIDES[0]: "house", PORT_SIDES[1]: "house"})
    table.gained("sheep")

    events = table.play(LoootPlaceTile(tile="sheep", space=MIDDLE))

    assert events == [LoootTilePlaced(seat=0, tile="sheep", space=MIDDLE)]


def test_tiles_go_on_free_tile_spaces_only() -> None:
    table = drawn_table(SHORE).fjord(0, {MIDDLE: "axe"}).gained("sheep")

    assert (
        table.refuse(LoootPlaceTile(tile="sheep", space=MIDDLE)).code == "looot.fjord.space_taken"
    )
    port = table.refuse(LoootPlaceTile(tile="sheep", space=cell(5, 1)))
    shield_slot = table.refuse(LoootPlaceTile(tile="sheep", space=cell(0, 0)))
    assert port.code == shield_slot.code == "looot.fjord.not_a_space"


# --- Longships -------------------------------------------------------------------------------


def test_a_longship_taken_at_the_end_of_the_turn_is_replaced_from_the_bag() -> None:
    table = drawn_table(SHORE, market={0: WOOD_XXW}).viking_placed()
    bag_before = list(table.state.bag)
    draw = table.state.draws

    events = table.play(TakeLongship(slot=0, space=MIDDLE))

    # The refill is draw number `draw`: a uniform index into the sorted bag
    refill = bag_before[Chance(SEED).below(draw, len(bag_before))]
    assert events == [
        LongshipTaken(seat=0, slot=0, longship=WOOD_XXW, space=MIDDLE),
        LongshipDrawn(slot=0, longship=refill, draw=draw),
    ]
    assert table.player(0).longships == {MIDDLE: WOOD_XXW}
    assert table.state.market == [refill]
    assert refill not in table.state.bag
    assert table.state.draws == draw + 1


def test_at_most_one_longship_per_turn() -> None:
    table = drawn_table(["OXO"], market={0: WOOD_XXW, 1: CASTLE_XXW}).viking_placed()
    table.play(TakeLongship(slot=0, space=MIDDLE))

    refusal = table.refuse(TakeLongship(slot=1, space=cell(2, 3)))

    assert refusal.code == "looot.longship.one_per_turn"


def test_a_longship_comes_after_the_viking_and_its_tiles() -> None:
    table = drawn_table(SHORE, market={0: WOOD_XXW})
    before_viking = table.refuse(TakeLongship(slot=0, space=MIDDLE))
    table.gained("axe")
    with_tiles_pending = table.refuse(TakeLongship(slot=0, space=MIDDLE))

    assert before_viking.code == "looot.turn.viking_first"
    assert with_tiles_pending.code == "looot.turn.tiles_pending"


def test_a_longship_needs_a_ship_in_the_slot_and_a_free_fjord_space() -> None:
    table = drawn_table(["OXO"], market={0: WOOD_XXW}).fjord(0, {MIDDLE: "axe"}).viking_placed()

    assert table.refuse(TakeLongship(slot=1, space=cell(2, 3))).code == "looot.longship.empty_slot"
    assert table.refuse(TakeLongship(slot=2, space=cell(2, 3))).code == (
        "looot.longship.no_such_slot"
    )
    assert table.refuse(TakeLongship(slot=0, space=MIDDLE)).code == "looot.fjord.space_taken"
    assert table.refuse(TakeLongship(slot=0, space=cell(4, 4))).code == "looot.fjord.not_a_space"


def test_with_the_bag_empty_the_ocean_slot_stays_empty() -> None:
    table = drawn_table(SHORE, market={0: WOOD_XXW}).viking_placed()
    table.state.bag.clear()

    events = table.play(TakeLongship(slot=0, space=MIDDLE))

    assert events == [LongshipTaken(seat=0, slot=0, longship=WOOD_XXW, space=MIDDLE)]
    assert table.state.market == [None]


def test_a_longship_fills_when_its_three_resources_surround_it() -> None:
    table = drawn_table(SHORE).gained("axe", "axe", "wood")
    table.player(0).longships[MIDDLE] = WOOD_XXW

    first = table.play(LoootPlaceTile(tile="axe", space=AROUND_MIDDLE[0]))
    second = table.play(LoootPlaceTile(tile="wood", space=AROUND_MIDDLE[3]))
    third = table.play(LoootPlaceTile(tile="axe", space=AROUND_MIDDLE[5]))

    assert first[1:] == second[1:] == []
    assert third == [
        LoootTilePlaced(seat=0, tile="axe", space=AROUND_MIDDLE[5]),
        LongshipFilled(seat=0, longship=WOOD_XXW),
    ]
    assert table.player(0).filled == {WOOD_XXW}


def test_a_longship_put_where_its_needs_already_are_fills_at_once() -> None:
    table = drawn_table(SHORE, market={0: WOOD_XXW}).viking_placed()
    table.state.bag.clear()
    table.fjord(0, {AROUND_MIDDLE[0]: "axe", AROUND_MIDDLE[1]: "wood", AROUND_MIDDLE[2]: "axe"})

    events = table.play(TakeLongship(slot=0, space=MIDDLE))

    assert events[1:] == [LongshipFilled(seat=0, longship=WOOD_XXW)]


def test_one_resource_counts_for_every_longship_it_touches() -> None:
    # Longships at (3, 3) and (5, 3) share the spaces (4, 2) and (4, 3)
    left, right = MIDDLE, cell(5, 3)
    table = drawn_table(SHORE).fjord(0, {cell(3, 2): "wood", cell(5, 2): "wood", cell(4, 2): "axe"})
    table.player(0).longships.update({left: CASTLE_XXW, right: WOOD_XXW})
    table.gained("axe")

    events = table.play(LoootPlaceTile(tile="axe", space=cell(4, 3)))

    assert events[1:] == [
        LongshipFilled(seat=0, longship=CASTLE_XXW),
        LongshipFilled(seat=0, longship=WOOD_XXW),
    ]


# --- Trophies --------------------------------------------------------------------------------

THREE_AXES = {cell(0, 1): "axe", cell(6, 4): "axe", cell(3, 6): "axe"}


def test_a_trophy_needs_its_axes_anywhere_on_the_fjord() -> None:
    table = drawn_table(SHORE).fjord(0, THREE_AXES).viking_placed()

    too_many = table.refuse(ClaimTrophy(axes=4))
    events = table.play(ClaimTrophy(axes=3))

    assert too_many.code == "looot.trophy.too_few_axes"
    assert too_many.details == {"axes": 4, "have": 3}
    assert events == [TrophyClaimed(seat=0, axes=3, points=6)]
    assert table.state.trophies[3] == 0


def test_a_smaller_trophy_may_be_claimed_than_the_axes_allow() -> None:
    table = drawn_table(SHORE).fjord(0, THREE_AXES).viking_placed()

    assert table.play(ClaimTrophy(axes=2)) == [TrophyClaimed(seat=0, axes=2, points=3)]


def test_one_trophy_per_player_per_game() -> None:
    table = drawn_table(SHORE).fjord(0, {**THREE_AXES, cell(3, 5): "axe"}).viking_placed()
    table.play(ClaimTrophy(axes=2))
    table.next_turn(0).viking_placed()

    refusal = table.refuse(ClaimTrophy(axes=4))

    assert refusal.code == "looot.trophy.one_per_game"


def test_each_trophy_goes_to_the_first_to_claim_it() -> None:
    table = drawn_table(SHORE).fjord(0, THREE_AXES).fjord(1, THREE_AXES).viking_placed()
    table.play(ClaimTrophy(axes=3))
    table.next_turn(1).viking_placed()

    taken = table.refuse(ClaimTrophy(axes=3))
    unknown = table.refuse(ClaimTrophy(axes=7))

    assert taken.code == "looot.trophy.taken"
    assert taken.details == {"axes": 3, "holder": 0}
    assert unknown.code == "looot.trophy.no_such_trophy"
    assert table.play(ClaimTrophy(axes=2)) == [TrophyClaimed(seat=1, axes=2, points=3)]


def test_a_trophy_is_claimed_at_the_end_of_the_turn() -> None:
    table = drawn_table(SHORE, market={0: WOOD_XXW}).fjord(0, THREE_AXES)

    assert table.refuse(ClaimTrophy(axes=2)).code == "looot.turn.viking_first"
    table.gained("axe")
    assert table.refuse(ClaimTrophy(axes=2)).code == "looot.turn.tiles_pending"
    table.play(LoootPlaceTile(tile="axe", space=MIDDLE))
    table.play(ClaimTrophy(axes=4))
    second_viking = table.refuse(LoootPlaceViking(space=cell(1), second_viking=True))
    assert second_viking.code == "looot.viking.after_end_of_turn"


# --- A full Fjord ----------------------------------------------------------------------------


def test_tiles_that_no_longer_fit_are_lost() -> None:
    # Given every Fjord space but the last is taken
    table = drawn_table(SHORE).fjord(0, dict.fromkeys(TILE_SPACES[:-1], "wood"))
    table.gained("axe", "house")

    events = table.play(LoootPlaceTile(tile="axe", space=TILE_SPACES[-1]))

    assert events == [
        LoootTilePlaced(seat=0, tile="axe", space=TILE_SPACES[-1]),
        TilesLost(seat=0, tiles=("house",)),
    ]
    assert table.player(0).tiles_lost == 1
    assert table.turn.pending == []


def test_a_viking_gains_nothing_for_a_full_fjord() -> None:
    table = drawn_table(["HXO"], market={0: WOOD_XXW})
    table.fjord(0, dict.fromkeys(TILE_SPACES, "wood"))

    events = table.play(LoootPlaceViking(space=cell(1)))

    assert events[0] == LoootVikingPlaced(seat=0, space=cell(1), shields=(), resources=("axe",))
    assert events[-1] == TilesLost(seat=0, tiles=("axe", "house"))
    assert table.turn.pending == []
    assert table.refuse(TakeLongship(slot=0, space=MIDDLE)).code == "looot.fjord.space_taken"
