"""Rune stones placed in the Exploration Phase and the points they score: Strength, Water,
Friendship and Home (rule book, "Playing Fjords with the rune stones"), and the General
Placement Rule (decision 6 in the Fjords README)."""

from __future__ import annotations

import pytest
from fjords_helpers import Landscape, Table, build_table

from contracts.base import Command
from contracts.games.fjords import (
    LonghousePlaced,
    PlaceTile,
    PlaceViking,
    RuneStonePlaced,
    RuneStoneView,
    TilePlaced,
)
from domain.errors import IllegalCommand
from domain.hexgrid import Hex

ALL_PLAINS_TRIANGLE = {(0, 0): "PPPPPP", (1, 0): "PPPPPP", (0, 1): "PPPPPP"}
# Mountains where (1,-1) meets the triangle: the all-mountain tile fits there.
MOUNTAIN_SLOT = Landscape().paint((1, -1), ["SE", "S", "SW"], "M").board(ALL_PLAINS_TRIANGLE)
# Sea at the SE and S corners of (1,-1): the Water tile PPSSSS fits there turned 4 (SSSSPP).
COAST_SLOT = Landscape().paint((1, -1), ["SE", "S"], "S").board(ALL_PLAINS_TRIANGLE)


def refusal(table: Table, command: Command, seat: int = 0) -> IllegalCommand:
    before = table.game.copy_state(table.state)
    with pytest.raises(IllegalCommand) as caught:
        table.play(command, seat)
    assert table.state == before, "a refused command changes nothing"
    return caught.value


def rune_scores(
    vikings: dict[Hex, int],
    stones: dict[Hex, str | tuple[str, int]],
    board: dict[Hex, str] | None = None,
    players: int = 2,
    runes: tuple[str, ...] = ("strength", "water", "friendship", "home"),
    longhouses: dict[Hex, int] | None = None,
) -> list[dict[str, int]]:
    """The breakdowns of a finished game with these pieces and stones (all plains unless
    `board`)."""
    positions = [*vikings, *stones, *(longhouses or {})]
    table = build_table(
        board if board is not None else Landscape().board(positions),
        players=players,
        runes=runes,
        stones=stones,
        longhouses=longhouses,
        vikings=vikings,
        settlement_starter=0,
        out=range(players),
        ended=True,
    )
    result = table.game.outcome(table.state)
    assert result is not None
    return [score.breakdown for score in result.scores]


# --- Strength ---------------------------------------------------------------------------------


def test_the_strength_stone_goes_on_the_all_mountain_tile_when_it_is_added() -> None:
    table = build_table(MOUNTAIN_SLOT, runes=["strength"], row=["MMMMMM strength"])
    tile = table.ids["row0"]
    events = table.play(PlaceTile(tile, 1, -1, 0), 0)
    assert events[:2] == [
        TilePlaced(0, tile, 1, -1, 0, "MMMMMM"),
        RuneStonePlaced("strength", 1, -1),
    ]
    assert table.game.view(table.state, None).rune_stones == [RuneStoneView("strength", 1, -1)]


def test_without_the_strength_rune_the_tile_gets_no_stone() -> None:
    table = build_table(MOUNTAIN_SLOT, runes=["water"], row=["MMMMMM strength"])
    events = table.play(PlaceTile(table.ids["row0"], 1, -1, 0), 0)
    assert not any(isinstance(e, RuneStonePlaced) for e in events)


def test_each_viking_next_to_the_strength_stone_scores_one_more_point() -> None:
    # Given the stone at (0,0); seat 0 has vikings on two of its neighbours, seat 1 on one, and
    # a viking two tiles away
    vikings = {(1, 0): 0, (0, 1): 0, (-1, 0): 1, (2, 0): 1}
    scores = rune_scores(vikings, {(0, 0): "strength"})
    # Then seat 0 scores 2 strength points and seat 1 one, each beside its vikings
    assert [(s["vikings"], s["strength_rune"]) for s in scores] == [(2, 2), (2, 1)]


# --- Water ------------------------------------------------------------------------------------


def test_the_water_stone_goes_on_the_water_tile_and_blocks_longhouses() -> None:
    # Given the Water rune and the Water tile in the row
    table = build_table(COAST_SLOT, runes=["water"], row=["PPSSSS water"])
    tile = table.ids["row0"]
    # Then no placement of it is listed with a longhouse (decision 6 in the Fjords README)
    listed = [c for c in table.game.legal_commands(table.state, 0) if isinstance(c, PlaceTile)]
    assert listed and not any(c.longhouse for c in listed)
    error = refusal(table, PlaceTile(tile, 1, -1, 4, longhouse=True))
    assert error.code == "fjords.longhouse.rune_stone_tile" and "Water" in error.message
    # When it is placed, the stone lies on it
    events = table.play(PlaceTile(tile, 1, -1, 4), 0)
    assert RuneStonePlaced("water", 1, -1) in events


def test_without_the_water_rune_a_longhouse_may_go_on_the_water_tile() -> None:
    table = build_table(COAST_SLOT, row=["PPSSSS water"])
    events = table.play(PlaceTile(table.ids["row0"], 1, -1, 4, longhouse=True), 0)
    assert LonghousePlaced(0, 1, -1, "white") in events


def test_vikings_connected_by_ocean_to_the_water_stone_score_one_more_point() -> None:
    # Given the stone at (0,0) whose NE corner is sea: (1,-1) and (1,0) share that corner and
    # are connected to it by ocean; (0,1) and (-1,0) touch it along plains only
    vikings = {(1, 0): 0, (-1, 0): 0, (1, -1): 1, (0, 1): 1}
    board = Landscape().paint((0, 0), "NE", "S").board([*vikings, (0, 0)])
    scores = rune_scores(vikings, {(0, 0): "water"}, board=board)
    # Then each seat scores 1 for its viking across the sea corner, nothing for the other
    assert [s["water_rune"] for s in scores] == [1, 1]


def test_the_water_point_follows_the_coastline_through_a_chain_of_tiles() -> None:
    # Given the stone at (0,0) and a strip of tiles along r = 0 each side of it. East: each
    # tile's NE corner is sea, so (0,0)-(1,0)-(2,0)-(3,0) are joined pair by pair by ocean.
    # West: (0,0) and (-1,0) share a sea corner, (-2,0) and (-3,0) another, but (-1,0) and
    # (-2,0) meet along plains only
    landscape = Landscape()
    for q in (0, 1, 2):
        landscape.paint((q, 0), "NE", "S")
    landscape.paint((0, 0), "NW", "S").paint((-2, 0), "NW", "S")
    vikings = {(3, 0): 0, (-3, 0): 1}
    board = landscape.board([(q, 0) for q in range(-3, 4)])
    scores = rune_scores(vikings, {(0, 0): "water"}, board=board)
    # Then the viking three tiles along the coast scores (decision 11 in the Fjords README), the
    # one beyond the land break does not
    assert [s["water_rune"] for s in scores] == [1, 0]


# --- Friendship -------------------------------------------------------------------------------


def test_friendship_stones_go_on_friendship_tiles_when_the_rune_is_in_play() -> None:
    with_rune = build_table(ALL_PLAINS_TRIANGLE, runes=["friendship"], row=["PPPPPP friendship"])
    tile = with_rune.ids["row0"]
    error = refusal(with_rune, PlaceTile(tile, 1, -1, 0, longhouse=True))
    assert error.code == "fjords.longhouse.rune_stone_tile"
    assert RuneStonePlaced("friendship", 1, -1) in with_rune.play(PlaceTile(tile, 1, -1, 0), 0)
    # Without the rune it is a plain all-plains tile
    without = build_table(ALL_PLAINS_TRIANGLE, row=["PPPPPP friendship"])
    events = without.play(PlaceTile(tile, 1, -1, 0, longhouse=True), 0)
    assert not any(isinstance(e, RuneStonePlaced) for e in events)


def test_friendship_scores_two_for_the_most_vikings_around_each_stone_ties_included() -> None:
    # Given stones at (0,0) and (2,0), and one at (0,3) with no viking around it. Around (0,0):
    # seat 0 at (1,0), seat 1 at (-1,0): a tie. Around (2,0): seat 0 at (1,0) (counted again)
    # and (2,1), seat 1 at (3,0). Seat 2 has a viking far away.
    vikings = {(1, 0): 0, (2, 1): 0, (-1, 0): 1, (3, 0): 1, (6, 3): 2}
    stones: dict[Hex, str | tuple[str, int]] = {
        (0, 0): "friendship",
        (2, 0): "friendship",
        (0, 3): "friendship",
    }
    scores = rune_scores(vikings, stones, players=3)
    # Then seat 0 scores 2 + 2 (tied at the first, ahead at the second), seat 1 scores 2 for
    # the tie, seat 2 nothing, and the lonely stone gives nobody anything
    assert [s["friendship_runes"] for s in scores] == [4, 2, 0]


def test_a_friendship_stone_with_no_viking_around_scores_for_nobody() -> None:
    scores = rune_scores({(5, 0): 0, (7, 0): 1}, {(0, 0): "friendship"})
    assert [s["friendship_runes"] for s in scores] == [0, 0]


# --- Home -------------------------------------------------------------------------------------


def test_the_home_rune_goes_under_a_longhouse_on_the_tile_just_placed() -> None:
    table = build_table(ALL_PLAINS_TRIANGLE, runes=["home"], row=["PPPPPP"], bag=["PPPPPP"])
    tile = table.ids["row0"]
    assert PlaceTile(tile, 1, -1, 0, True, True) in table.game.legal_commands(table.state, 0)
    events = table.play(PlaceTile(tile, 1, -1, 0, longhouse=True, home=True), 0)
    assert events[1:3] == [RuneStonePlaced("home", 1, -1, 0), LonghousePlaced(0, 1, -1, "white")]
    assert table.state.runes_held == [[], ["home"]]
    view = table.game.view(table.state, 1)
    assert view.rune_stones == [RuneStoneView("home", 1, -1, 0, "white")]
    assert [seat.runes for seat in view.seats] == [[], ["home"]]


def test_the_home_rune_is_refused_without_its_longhouse_or_once_used_or_not_in_play() -> None:
    table = build_table(ALL_PLAINS_TRIANGLE, runes=["home"], row=["PPPPPP"])
    tile = table.ids["row0"]
    assert (
        refusal(table, PlaceTile(tile, 1, -1, 0, home=True)).code == "fjords.home.needs_longhouse"
    )
    used = build_table(
        ALL_PLAINS_TRIANGLE, runes=["home"], row=["PPPPPP"], used_runes={0: ["home"]}
    )
    assert refusal(used, PlaceTile(tile, 1, -1, 0, True, True)).code == "fjords.rune.already_used"
    assert not any(c.home for c in used.game.legal_commands(used.state, 0))
    absent = build_table(ALL_PLAINS_TRIANGLE, row=["PPPPPP"])
    assert refusal(absent, PlaceTile(tile, 1, -1, 0, True, True)).code == "fjords.rune.not_in_game"


def test_the_home_rune_cannot_be_placed_with_no_longhouse_left() -> None:
    # Given seat 0 has placed all 4 longhouses
    board = {**ALL_PLAINS_TRIANGLE, (-1, 1): "PPPPPP"}
    longhouses = {position: 0 for position in board}
    table = build_table(board, runes=["home"], row=["PPPPPP"], longhouses=longhouses)
    # Then the Home rune is refused, saying why, and never listed
    error = refusal(table, PlaceTile(table.ids["row0"], 1, -1, 0, True, True))
    assert error.code == "fjords.home.no_longhouse_left" and "no longhouses left" in error.message
    assert not any(c.home or c.longhouse for c in table.game.legal_commands(table.state, 0))
    assert table.state.holds_rune(0, "home")


def test_own_vikings_next_to_the_home_rune_score_one_more_point_opponents_do_not() -> None:
    # Given seat 0's Home rune and longhouse at (0,0); seat 0 vikings at (1,0), (0,1) and far
    # away at (3,0); seat 1's viking at (-1,0), next to seat 0's home
    vikings = {(1, 0): 0, (0, 1): 0, (3, 0): 0, (-1, 0): 1}
    scores = rune_scores(vikings, {(0, 0): ("home", 0)}, longhouses={(0, 0): 0})
    assert [s["home_rune"] for s in scores] == [2, 0]


def test_the_breakdown_shows_each_runes_points_separately() -> None:
    vikings = {(1, 0): 0, (-1, 0): 1}
    scores = rune_scores(vikings, {(0, 0): "strength"}, runes=("strength", "journey", "home"))
    # Journey scores nothing, so it has no entry; Strength and Home do, even at 0
    assert scores[0] == {"vikings": 1, "undisputed_tiles": 0, "strength_rune": 1, "home_rune": 0}


# --- the General Placement Rule in Settlement --------------------------------------------------


def test_no_viking_goes_on_a_tile_holding_a_rune_stone() -> None:
    # Given seat 0's longhouse between a plains tile and a Friendship stone on an all-plains tile
    table = build_table(
        Landscape().board([(q, 0) for q in range(-1, 4)]),
        runes=["friendship"],
        stones={(1, 0): "friendship"},
        longhouses={(0, 0): 0, (3, 0): 1},
        settlement_starter=0,
    )
    # Then the stone's tile is neither listed nor accepted
    assert table.game.legal_commands(table.state, 0) == [PlaceViking(-1, 0)]
    error = refusal(table, PlaceViking(1, 0))
    assert error.code == "fjords.viking.rune_stone_tile" and error.details["rune"] == "friendship"
