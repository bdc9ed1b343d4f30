"""Exploration Phase rules (rule book, "Taking a turn during the Exploration Phase").

Boards are hand-built (fjords_helpers); the starting layout is the one of the Fjords README:
A = PSPPMM at (0,0), B = MPPPPP at (-1,1), C = PPPPPP at (0,1).
"""

from __future__ import annotations

import pytest
from fjords_helpers import Landscape, Table, build_table

from contracts.base import Command
from contracts.games.fjords import (
    DiscardedTilesReturned,
    ExplorationEnded,
    LonghousePlaced,
    PlaceTile,
    PlaceViking,
    PlayerOut,
    RowDiscarded,
    TileDrawn,
    TilePlaced,
)
from domain.chance import Chance
from domain.engine import decide
from domain.errors import IllegalCommand

STARTING_LAYOUT = {(0, 0): "PSPPMM", (-1, 1): "MPPPPP", (0, 1): "PPPPPP"}
ALL_PLAINS_TRIANGLE = {(0, 0): "PPPPPP", (1, 0): "PPPPPP", (0, 1): "PPPPPP"}


def refusal(table: Table, command: Command, seat: int = 0) -> IllegalCommand:
    before = table.game.copy_state(table.state)
    with pytest.raises(IllegalCommand) as caught:
        table.play(command, seat)
    assert table.state == before, "a refused command changes nothing"
    return caught.value


def test_a_tile_matching_both_neighbours_is_placed_and_the_row_refilled() -> None:
    # Given the starting layout; at (1,0) A's NE corner (sea) and C's plains meet the new tile
    table = build_table(STARTING_LAYOUT, row=["PPPPPS", "MMMMMM"], bag=["PPPPPP", "PPPPPP"])
    tile = table.ids["row0"]
    # When seat 0 places PPPPPS unturned there (its NW corner is the sea)
    events = table.play(PlaceTile(tile, 1, 0, 0), seat=0)
    # Then the tile lies there, a bag tile refills the row, and seat 1 is to act
    assert events[0] == TilePlaced(0, tile, 1, 0, 0, "PPPPPS")
    assert isinstance(events[1], TileDrawn) and events[1].draw == 3  # draws 0..2 were used
    assert len(table.state.row) == 2 and len(table.state.bag) == 1
    assert table.game.to_act(table.state) == [1]


def test_a_tile_touching_only_one_tile_is_refused() -> None:
    # Given the starting layout: (1,-1) touches only A
    table = build_table(STARTING_LAYOUT, row=["PPPPPS"])
    # Then a tile there is refused (the rule book's second pictured illegal placement)
    error = refusal(table, PlaceTile(table.ids["row0"], 1, -1, 0))
    assert error.code == "fjords.tile.touches_fewer_than_two"
    assert error.details == {"q": 1, "r": -1, "touching": 1}


def test_a_corner_that_does_not_match_is_refused_naming_the_corner_and_the_neighbour() -> None:
    # Given the starting layout: at (1,0) the new NW corner meets A's NE corner, which is sea
    table = build_table(STARTING_LAYOUT, row=["PPPPPP"])
    # When an all-plains tile goes there (the rule book's pictured terrain mismatch)
    error = refusal(table, PlaceTile(table.ids["row0"], 1, 0, 0))
    # Then the refusal names the corner, the neighbour and both terrains
    assert error.code == "fjords.tile.corner_mismatch"
    assert error.details == {
        "q": 1,
        "r": 0,
        "corner": "NW",
        "neighbour_q": 0,
        "neighbour_r": 0,
        "neighbour_corner": "NE",
        "expected": "S",
        "found": "P",
    }
    assert "sea" in error.message and "plains" in error.message


def test_land_touching_the_board_only_at_sea_corners_is_a_second_landmass() -> None:
    # Given a coast: the three corners of (1,-1) shared with the board are sea
    board = Landscape().paint((1, -1), ["SE", "S", "SW"], "S").board(ALL_PLAINS_TRIANGLE)
    table = build_table(board, row=["PPPSSS"])
    # When PPPSSS is turned so its sea meets that sea (rotation 5 gives PPSSSP): corners agree
    error = refusal(table, PlaceTile(table.ids["row0"], 1, -1, 5))
    # Then its plains would be an island: refused (pictured: "can't create a second landmass")
    assert error.code == "fjords.tile.second_landmass"
    assert error.details["corners"] == ["N", "NE", "NW"]


def test_plains_beyond_a_mountain_range_are_one_landmass() -> None:
    # Given mountains on the three corners of (1,-1) shared with the board
    board = Landscape().paint((1, -1), ["SE", "S", "SW"], "M").board(ALL_PLAINS_TRIANGLE)
    table = build_table(board, row=["PPMMMP"])
    # When a tile whose plains lie beyond those mountains goes there
    table.play(PlaceTile(table.ids["row0"], 1, -1, 0), seat=0)
    # Then it is legal: mountains are land ("a new area of plains separated by a mountain range")
    assert (1, -1) in table.state.board


def test_a_placement_that_leaves_a_hole_is_legal() -> None:
    # Given five tiles around the empty space (0,0)
    ring = {(1, 0): "PPPPPP", (0, 1): "PPPPPP", (-1, 1): "PPPPPP", (-1, 0): "PPPPPP"}
    ring[(0, -1)] = "PPPPPP"
    table = build_table(ring, row=["PPPPPP"])
    # When the sixth ring tile closes the ring around (0,0)
    table.play(PlaceTile(table.ids["row0"], 1, -1, 0), seat=0)
    # Then the hole stays, and the game goes on
    assert (1, -1) in table.state.board and (0, 0) not in table.state.board


def test_a_tile_on_an_occupied_space_is_refused() -> None:
    table = build_table(STARTING_LAYOUT, row=["PPPPPP"])
    error = refusal(table, PlaceTile(table.ids["row0"], 0, 1, 0))
    assert error.code == "fjords.tile.position_occupied"


def test_only_row_tiles_may_be_chosen() -> None:
    table = build_table(STARTING_LAYOUT, row=["PPPPPS"], bag=["PPPPPS"])
    error = refusal(table, PlaceTile(table.ids["bag0"], 1, 0, 0))
    assert error.code == "fjords.tile.not_in_row"
    assert error.details["row"] == [table.ids["row0"]]


def test_a_rotation_outside_0_to_5_is_refused() -> None:
    table = build_table(STARTING_LAYOUT, row=["PPPPPS"])
    assert refusal(table, PlaceTile(table.ids["row0"], 1, 0, 6)).code == "fjords.tile.bad_rotation"


def test_only_the_seat_to_act_may_place() -> None:
    table = build_table(STARTING_LAYOUT, row=["PPPPPS"], active=1)
    error = refusal(table, PlaceTile(table.ids["row0"], 1, 0, 0), seat=0)
    assert error.code == "turn.not_yours"
    assert error.details == {"seat": 0, "to_act": [1]}


def test_vikings_wait_for_the_settlement_phase() -> None:
    table = build_table(STARTING_LAYOUT, row=["PPPPPS"])
    assert refusal(table, PlaceViking(0, 1)).code == "fjords.phase.not_settlement"


def test_a_longhouse_goes_on_the_tile_just_placed_from_the_supply() -> None:
    table = build_table(STARTING_LAYOUT, row=["PPPPPS"])
    events = table.play(PlaceTile(table.ids["row0"], 1, 0, 0, longhouse=True), seat=0)
    assert events[1] == LonghousePlaced(0, 1, 0, "white")
    assert table.state.longhouses_left(0) == 3  # 4 per player (components)


def test_a_longhouse_needs_plains_on_the_tile() -> None:
    # Given mountains where (1,-1) meets the board, and the all-mountain tile in the row
    board = Landscape().paint((1, -1), ["SE", "S", "SW"], "M").board(ALL_PLAINS_TRIANGLE)
    table = build_table(board, row=["MMMMMM"])
    tile = table.ids["row0"]
    # Then a longhouse on it is refused ("you may not place a longhouse on the all-mountain tile")
    error = refusal(table, PlaceTile(tile, 1, -1, 0, longhouse=True))
    assert error.code == "fjords.longhouse.needs_plains"
    # And the tile alone is fine
    table.play(PlaceTile(tile, 1, -1, 0), seat=0)


def test_no_longhouse_once_all_four_are_placed() -> None:
    spots = {(0, 0): 0, (1, 0): 0, (0, 1): 0, (-1, 1): 0}
    board = {(0, 0): "PPPPPP", (1, 0): "PPPPPP", (0, 1): "PPPPPP", (-1, 1): "PPPPPP"}
    table = build_table(board, row=["PPPPPP"], longhouses=spots)
    error = refusal(table, PlaceTile(table.ids["row0"], 1, -1, 0, longhouse=True))
    assert error.code == "fjords.longhouse.none_left"


def test_equivalent_rotations_of_a_symmetric_tile_are_one_placement() -> None:
    # Given an all-plains tile, which looks the same under every rotation
    table = build_table(ALL_PLAINS_TRIANGLE, row=["PPPPPP"])
    listed = table.game.legal_commands(table.state, 0)
    # Then legal_commands lists each space once (with and without a longhouse)
    spaces = [(c.q, c.r) for c in listed if isinstance(c, PlaceTile) and not c.longhouse]
    assert len(spaces) == len(set(spaces))
    assert {c.rotation for c in listed if isinstance(c, PlaceTile)} == {0}
    # And decide accepts another rotation of it, recording the smallest
    events = table.play(PlaceTile(table.ids["row0"], 1, -1, 3), seat=0)
    assert events[0] == TilePlaced(0, table.ids["row0"], 1, -1, 0, "PPPPPP")


def test_legal_commands_are_exactly_the_placements_decide_accepts() -> None:
    # Given a varied board and a row of asymmetric tiles
    board = (
        Landscape()
        .paint((0, 0), ["N", "NE"], "S")
        .paint((1, 0), ["SE"], "M")
        .paint((-1, 1), ["SW", "S"], "M")
        .board([(0, 0), (1, 0), (0, 1), (-1, 1), (1, -1)])
    )
    table = build_table(board, row=["PPPPSS", "MMPPPP", "MPMPPP"], bag=["PPPPPP"])
    game, state = table.game, table.state
    # When every row tile is tried at every space near the board, in all six rotations
    accepted = set()
    for tile in state.row:
        for q in range(-3, 4):
            for r in range(-3, 4):
                for rotation in range(6):
                    for longhouse in (False, True):
                        try:
                            events = decide(
                                game,
                                state,
                                PlaceTile(tile, q, r, rotation, longhouse),
                                0,
                                Chance(b"s"),
                            )
                        except IllegalCommand:
                            continue
                        placed = events[0]
                        assert isinstance(placed, TilePlaced)
                        accepted.add(PlaceTile(tile, q, r, placed.rotation, longhouse))
    # Then legal_commands lists exactly those, each once
    listed = game.legal_commands(state, 0)
    assert len(listed) == len(set(listed))
    assert set(listed) == accepted and accepted


def test_an_unplaceable_row_is_redrawn_and_the_redraw_always_ends() -> None:
    # Given an all-plains board where only all-plains tiles fit: the row holds one, the bag one
    # among twelve all-mountain tiles
    redraws_seen = 0
    for seed in range(30):
        table = build_table(
            ALL_PLAINS_TRIANGLE,
            row=["PPPPPP", "MMMMMM", "MMMMMM", "MMMMMM"],
            bag=["MMMMMM"] * 12 + ["PPPPPP"],
        )
        plains_in_bag = table.ids["bag12"]
        # When seat 0 places the fitting tile (the refill then draws one of the 13)
        events = table.play(PlaceTile(table.ids["row0"], 1, -1, 0), 0, Chance(bytes([seed])))
        discarded = [e for e in events if isinstance(e, RowDiscarded)]
        if not discarded:
            continue
        redraws_seen += 1
        # Then rows are set aside until the fitting tile is face up, then return to the bag
        assert len(discarded) <= 4  # each round removes up to 4 unfitting tiles of 13
        assert plains_in_bag in table.state.row
        returned = [e for e in events if isinstance(e, DiscardedTilesReturned)]
        assert returned == [DiscardedTilesReturned(sorted(t for e in discarded for t in e.tiles))]
        state = table.state
        assert state.discarded == [] and len(state.row) == 4 and len(state.bag) == 3 + 13 - 4
        assert table.game.to_act(state) == [1]
    assert redraws_seen > 0


def test_exploration_ends_when_the_last_tile_is_placed_and_the_next_seat_settles_first() -> None:
    # Given three players and one tile left (in the row); seat 1 places it with a longhouse
    table = build_table(ALL_PLAINS_TRIANGLE, players=3, row=["PPPPPP"], active=1)
    events = table.play(PlaceTile(table.ids["row0"], 1, -1, 0, longhouse=True), seat=1)
    # Then Exploration ends; the player to the left of the last placer (seat 2) starts
    # Settlement, but has no longhouse so is out, as is seat 0; seat 1 acts
    ended = next(e for e in events if isinstance(e, ExplorationEnded))
    assert ended == ExplorationEnded("all_tiles_placed", 0, 2)
    assert [e for e in events if isinstance(e, PlayerOut)] == [
        PlayerOut(2, "no_legal_placement"),
        PlayerOut(0, "no_legal_placement"),
    ]
    assert table.state.phase == "settlement" and table.game.to_act(table.state) == [1]


def test_exploration_ends_when_no_remaining_tile_fits_and_that_turns_player_starts() -> None:
    # Given an all-plains board; after seat 0's tile only all-mountain tiles remain
    table = build_table(ALL_PLAINS_TRIANGLE, row=["PPPPPP", "MMMMMM"], bag=["MMMMMM"] * 2)
    events = table.play(PlaceTile(table.ids["row0"], 1, -1, 0, longhouse=True), seat=0)
    # Then Exploration ends with 3 tiles unplaced; seat 1, on whose turn nothing fits, starts
    # Settlement (and is out at once, having no longhouse)
    assert ExplorationEnded("no_tile_fits", 3, 1) in events
    assert events[-1] == PlayerOut(1, "no_legal_placement")
    assert table.game.to_act(table.state) == [0]


def test_tiles_are_not_placed_in_the_settlement_phase() -> None:
    table = build_table(ALL_PLAINS_TRIANGLE, longhouses={(0, 0): 0}, settlement_starter=0)
    error = refusal(table, PlaceTile(1000, 1, -1, 0))
    assert error.code == "fjords.phase.not_exploration"


class Shout(Command, frozen=True):
    """A command of no Fjords kind."""


def test_unknown_seats_and_commands_are_refused() -> None:
    table = build_table(STARTING_LAYOUT, row=["PPPPPS"])
    assert refusal(table, PlaceTile(table.ids["row0"], 1, 0, 0), seat=2).code == "turn.not_yours"
    assert refusal(table, Shout()).code == "fjords.command.unknown"
