"""Placing Vikings, the turn's steps, the three Shields and the end of the game.

Rules summary: "Place a Viking", "Use a Shield", "Game End";
the Looot README (Rules): "Vikings go only on unoccupied resource spaces, never on building
spaces", and the Shields.
"""

from __future__ import annotations

from looot_helpers import cell, drawn_table

from contracts.games.looot import (
    EndTurn,
    LoootPlaceTile,
    LoootPlaceViking,
    LoootTilePlaced,
    LoootVikingPlaced,
    TakeLongship,
    TurnEnded,
)
from domain.games.looot import GAME

SHORE = ["OXSWX"]  # ocean slot 0, then a line of resource spaces: axe, sheep, wood, axe
FREE = cell(3, 3)  # a free space in the middle of every Fjord (printed x 3, y 3)
OTHER_FREE = cell(2, 3)


def test_the_first_viking_lands_next_to_a_longship() -> None:
    table = drawn_table(SHORE, market={0: 1})

    events = table.play(LoootPlaceViking(space=cell(1)))

    assert events == [LoootVikingPlaced(seat=0, space=cell(1), shields=(), resources=("axe",))]
    assert table.state.vikings == {cell(1): (0,)}
    assert table.player(0).vikings_left == 12
    assert table.turn.pending == ["axe"]


def test_a_viking_must_touch_a_viking_or_a_longship() -> None:
    table = drawn_table(SHORE, market={0: 1})

    refusal = table.refuse(LoootPlaceViking(space=cell(2)))

    assert refusal.code == "looot.viking.not_adjacent"
    assert refusal.details == {"space": list(cell(2))}


def test_any_players_viking_lets_a_viking_land_next_to_it() -> None:
    table = drawn_table(SHORE, market={0: 1}).vikings(1, cell(1))

    table.play(LoootPlaceViking(space=cell(2)))

    assert table.state.vikings[cell(2)] == (0,)


def test_an_empty_ocean_slot_is_no_longship_to_land_by() -> None:
    table = drawn_table(SHORE, market={})

    assert table.refuse(LoootPlaceViking(space=cell(1))).code == "looot.viking.not_adjacent"


def test_vikings_go_on_resource_spaces_only() -> None:
    table = drawn_table(["OXH"], market={0: 1}).vikings(1, cell(1))

    assert table.refuse(LoootPlaceViking(space=cell(2))).code == "looot.viking.building_space"
    assert table.refuse(LoootPlaceViking(space=cell(0))).code == "looot.viking.not_land"
    assert table.refuse(LoootPlaceViking(space=cell(7))).code == "looot.viking.not_land"


def test_an_occupied_space_needs_the_shield() -> None:
    table = drawn_table(SHORE, market={0: 1}).vikings(1, cell(1))

    refusal = table.refuse(LoootPlaceViking(space=cell(1)))

    assert refusal.code == "looot.viking.space_occupied"
    assert refusal.details["occupants"] == [1]


def test_gained_tiles_go_on_the_fjord_before_anything_else() -> None:
    table = drawn_table(SHORE, market={0: 1})
    table.play(LoootPlaceViking(space=cell(1)))

    assert table.refuse(EndTurn()).code == "looot.turn.tiles_pending"
    assert table.refuse(LoootPlaceViking(space=cell(2))).code == "looot.turn.tiles_pending"
    assert table.refuse(LoootPlaceTile(tile="wood", space=FREE)).code == "looot.tile.not_pending"
    placed = table.play(LoootPlaceTile(tile="axe", space=FREE))

    assert placed == [LoootTilePlaced(seat=0, tile="axe", space=FREE)]
    assert table.play(EndTurn()) == [TurnEnded(seat=0, next_seat=1)]
    assert GAME.to_act(table.state) == [1]


def test_a_turn_starts_with_a_viking_and_belongs_to_one_player() -> None:
    table = drawn_table(SHORE, market={0: 1})

    assert table.refuse(EndTurn()).code == "looot.turn.viking_first"
    assert table.refuse(LoootPlaceTile(tile="axe", space=FREE)).code == "looot.tile.none_pending"
    assert table.refuse(LoootPlaceViking(space=cell(1)), seat=1).code == "turn.not_yours"


def test_without_the_shield_one_viking_per_turn() -> None:
    table = drawn_table(SHORE, market={0: 1})
    table.play(LoootPlaceViking(space=cell(1)))
    table.play(LoootPlaceTile(tile="axe", space=FREE))

    assert table.refuse(LoootPlaceViking(space=cell(2))).code == "looot.viking.one_per_turn"


def test_the_second_viking_shield_places_another_viking_once_per_game() -> None:
    table = drawn_table(SHORE, market={0: 1})
    table.play(LoootPlaceViking(space=cell(1)))
    table.play(LoootPlaceTile(tile="axe", space=FREE))

    events = table.play(LoootPlaceViking(space=cell(2), second_viking=True))

    assert events == [
        LoootVikingPlaced(seat=0, space=cell(2), shields=("second_viking",), resources=("sheep",))
    ]
    assert table.player(0).vikings_left == 11
    table.play(LoootPlaceTile(tile="sheep", space=OTHER_FREE))
    third = LoootPlaceViking(space=cell(3), second_viking=True)
    assert table.refuse(third).code == "looot.shield.used"
    table.play(EndTurn())
    table.play(LoootPlaceViking(space=cell(3)), seat=1)
    table.play(LoootPlaceTile(tile="wood", space=FREE), seat=1)
    table.play(EndTurn(), seat=1)
    table.play(LoootPlaceViking(space=cell(4)), seat=0)
    table.play(LoootPlaceTile(tile="axe", space=cell(4, 3)), seat=0)
    assert table.refuse(third).details == {"shield": "second_viking"}


def test_the_second_viking_shield_is_not_for_the_first_viking() -> None:
    table = drawn_table(SHORE, market={0: 1})

    refusal = table.refuse(LoootPlaceViking(space=cell(1), second_viking=True))

    assert refusal.code == "looot.shield.second_viking_too_early"


def test_no_second_viking_after_taking_a_longship() -> None:
    table = drawn_table(SHORE, market={0: 1}).vikings(0, cell(1)).viking_placed()
    table.play(TakeLongship(slot=0, space=FREE))

    refusal = table.refuse(LoootPlaceViking(space=cell(2), second_viking=True))

    assert refusal.code == "looot.viking.after_end_of_turn"


def test_the_occupied_space_shield_joins_an_opponent() -> None:
    table = drawn_table(SHORE, market={0: 1}).vikings(1, cell(1))

    events = table.play(LoootPlaceViking(space=cell(1), occupied_space=True))

    assert events == [
        LoootVikingPlaced(seat=0, space=cell(1), shields=("occupied_space",), resources=("axe",))
    ]
    assert table.state.vikings[cell(1)] == (1, 0)
    assert "occupied_space" not in table.player(0).shields


def test_the_occupied_space_shield_needs_an_opponent_there() -> None:
    table = drawn_table(SHORE, market={0: 1}).vikings(0, cell(2))

    empty = table.refuse(LoootPlaceViking(space=cell(1), occupied_space=True))
    own = table.refuse(LoootPlaceViking(space=cell(2), occupied_space=True))

    assert empty.code == "looot.shield.space_not_occupied"
    assert own.code == "looot.viking.own_space"


def test_the_occupied_space_shield_still_needs_a_neighbouring_viking() -> None:
    # Seat 1's lone Viking at the far end touches no other Viking and no Longship.
    table = drawn_table(SHORE, market={}).vikings(1, cell(4))

    refusal = table.refuse(LoootPlaceViking(space=cell(4), occupied_space=True))

    assert refusal.code == "looot.viking.not_adjacent"


def test_the_double_resource_shield_gives_two_tiles_once_per_game() -> None:
    table = drawn_table(SHORE, market={0: 1}).vikings(1, cell(1))

    events = table.play(LoootPlaceViking(space=cell(2), double_resource=True))

    assert events[0] == LoootVikingPlaced(
        seat=0, space=cell(2), shields=("double_resource",), resources=("sheep", "sheep")
    )
    assert table.turn.pending == ["sheep", "sheep"]
    table.play(LoootPlaceTile(tile="sheep", space=FREE))
    table.play(LoootPlaceTile(tile="sheep", space=OTHER_FREE))
    table.play(EndTurn())
    table.play(LoootPlaceViking(space=cell(3)), seat=1)
    table.play(LoootPlaceTile(tile="wood", space=FREE), seat=1)
    table.play(EndTurn(), seat=1)
    refusal = table.refuse(LoootPlaceViking(space=cell(4), double_resource=True))
    assert refusal.details == {"shield": "double_resource"}


def test_shields_combine_on_one_viking() -> None:
    table = drawn_table(SHORE, market={0: 1}).vikings(1, cell(1), cell(2))
    table.play(LoootPlaceViking(space=cell(3)))
    table.play(LoootPlaceTile(tile="wood", space=FREE))

    events = table.play(
        LoootPlaceViking(
            space=cell(2), second_viking=True, occupied_space=True, double_resource=True
        )
    )

    assert events[0] == LoootVikingPlaced(
        seat=0,
        space=cell(2),
        shields=("second_viking", "occupied_space", "double_resource"),
        resources=("sheep", "sheep"),
    )
    assert table.player(0).shields == set()


def test_the_game_ends_when_everyone_has_placed_all_their_vikings() -> None:
    # Given seat 0 used its second-Viking Shield earlier: it has 1 Viking left, seat 1 has 2
    table = drawn_table(["OXSWXSW"], market={0: 1}).vikings(0, cell(1)).vikings(1, cell(2))
    table.player(0).vikings_left = 1
    table.player(1).vikings_left = 2

    # When seat 0 places its last Viking, play passes to seat 1
    table.play(LoootPlaceViking(space=cell(3)))
    table.play(LoootPlaceTile(tile="wood", space=FREE))
    assert table.play(EndTurn()) == [TurnEnded(seat=0, next_seat=1)]

    # Then seat 1 plays on alone until its Vikings are placed too
    table.play(LoootPlaceViking(space=cell(4)))
    table.play(LoootPlaceTile(tile="axe", space=FREE))
    assert table.play(EndTurn()) == [TurnEnded(seat=1, next_seat=1)]
    assert GAME.outcome(table.state) is None
    table.play(LoootPlaceViking(space=cell(5)))
    table.play(LoootPlaceTile(tile="sheep", space=OTHER_FREE))
    assert table.play(EndTurn()) == [TurnEnded(seat=1, next_seat=None)]

    # And the game is over
    assert [player.vikings_left for player in table.state.players] == [0, 0]
    assert GAME.to_act(table.state) == []
    assert GAME.outcome(table.state) is not None
    assert table.refuse(EndTurn(), seat=1).code == "game.finished"
