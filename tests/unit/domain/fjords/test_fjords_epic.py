"""The Epic 2-player variant (rule book, "The Epic 2-player variant"; decision 9 in the Fjords
README): all tiles, two
colours per player (20 vikings + 4 longhouses, 10 + 2), both the player's own, pieces keeping
their colour, rune stones of one colour per player."""

from __future__ import annotations

import pytest
from fjords_helpers import Landscape, Table, build_table

from contracts.base import Command
from contracts.games.fjords import (
    FjordsConfig,
    LonghousePlaced,
    PieceView,
    PlaceTile,
    PlaceViking,
    RuneStoneView,
    VikingPlaced,
)
from domain.chance import Chance
from domain.engine import fold
from domain.errors import IllegalCommand
from domain.games.fjords import GAME

ALL_PLAINS_TRIANGLE = {(0, 0): "PPPPPP", (1, 0): "PPPPPP", (0, 1): "PPPPPP"}


def refusal(table: Table, command: Command, seat: int = 0) -> IllegalCommand:
    before = table.game.copy_state(table.state)
    with pytest.raises(IllegalCommand) as caught:
        table.play(command, seat)
    assert table.state == before, "a refused command changes nothing"
    return caught.value


def test_epic_uses_all_64_tiles_and_two_colours_per_player() -> None:
    # Given an Epic game with every rune stone
    config = FjordsConfig(players=2, variant="epic", runes=("journey", "horse", "wisdom", "home"))
    state = fold(GAME, GAME.setup(config, Chance(b"epic")))
    # Then all tiles are in play, "including those marked for 3 or 4 players"
    assert len(state.bag) + len(state.row) == 64
    # And each player has 20 vikings and 4 longhouses of one colour, 10 and 2 of another
    supplies = [[(s.colour, s.vikings, s.longhouses) for s in seat] for seat in state.supplies]
    assert supplies == [
        [("white", 20, 4), ("purple", 10, 2)],
        [("yellow", 20, 4), ("black", 10, 2)],
    ]
    assert [state.vikings_left(seat) for seat in (0, 1)] == [30, 30]
    # And "only use runes of one colour per player": one stone of each personal rune each
    assert state.runes_held == [["journey", "horse", "wisdom", "home"]] * 2


def test_the_player_chooses_the_colour_of_each_longhouse() -> None:
    # Given an Epic table and an all-plains tile in the row
    table = build_table(ALL_PLAINS_TRIANGLE, variant="epic", row=["PPPPPP"])
    tile = table.ids["row0"]
    # Then legal commands offer the tile with a white and with a purple longhouse
    listed = {
        c.colour for c in table.game.legal_commands(table.state, 0) if isinstance(c, PlaceTile)
    }
    assert listed == {None, "white", "purple"}  # None: no longhouse
    # And leaving the colour out is refused: there are two to choose from
    error = refusal(table, PlaceTile(tile, 1, -1, 0, longhouse=True))
    assert error.code == "fjords.colour.required"
    assert error.details["choices"] == ["white", "purple"]
    # And an opponent's colour is refused
    assert refusal(table, PlaceTile(tile, 1, -1, 0, True, colour="black")).code == (
        "fjords.colour.not_yours"
    )
    # When seat 0 places a purple longhouse
    events = table.play(PlaceTile(tile, 1, -1, 0, True, colour="purple"), 0)
    # Then it is purple, from the purple supply
    assert LonghousePlaced(0, 1, -1, "purple") in events
    assert [(s.colour, s.longhouses) for s in table.state.supplies[0]] == [
        ("white", 4),
        ("purple", 1),
    ]


def test_a_colour_with_none_left_is_refused_and_the_other_needs_no_name() -> None:
    # Given seat 0 has placed both purple longhouses
    table = build_table(
        ALL_PLAINS_TRIANGLE,
        variant="epic",
        row=["PPPPPP"],
        longhouses={(0, 0): (0, "purple"), (1, 0): (0, "purple")},
    )
    tile = table.ids["row0"]
    # Then purple is refused, white alone is listed, and no name means white
    assert refusal(table, PlaceTile(tile, 1, -1, 0, True, colour="purple")).code == (
        "fjords.colour.none_left"
    )
    listed = {c.colour for c in table.game.legal_commands(table.state, 0)}
    assert listed == {None, "white"}
    events = table.play(PlaceTile(tile, 1, -1, 0, True), 0)
    assert LonghousePlaced(0, 1, -1, "white") in events


def test_both_colours_are_the_players_own_in_settlement() -> None:
    # Given a strip of plains: seat 0's purple longhouse at (0,0), a white viking at (1,0)
    line = [(q, 0) for q in range(6)]
    table = build_table(
        Landscape().board(line),
        variant="epic",
        longhouses={(0, 0): (0, "purple"), (5, 0): (1, "black")},
        vikings={(1, 0): (0, "white")},
        settlement_starter=0,
    )
    # Then seat 0 may go on next to either of its colours, in either colour
    commands = table.game.legal_commands(table.state, 0)
    assert set(commands) == {PlaceViking(2, 0, "white"), PlaceViking(2, 0, "purple")}
    assert refusal(table, PlaceViking(2, 0)).code == "fjords.colour.required"
    # When it places a purple viking beside the white one
    assert table.play(PlaceViking(2, 0, "purple"), 0) == [VikingPlaced(0, 2, 0, "purple")]
    # Then the view shows each piece in its own colour
    pieces = table.game.view(table.state, None).pieces
    assert [(p.q, p.colour) for p in pieces if p.seat == 0] == [
        (0, "purple"),
        (1, "white"),
        (2, "purple"),
    ]
    assert PieceView("longhouse", 1, "black", 5, 0) in pieces


def test_vikings_of_both_colours_score_for_their_player() -> None:
    # Given a finished Epic game: seat 0 placed 2 white and 3 purple vikings, seat 1 one black
    vikings = {(0, 0): (0, "white"), (1, 0): (0, "white")}
    vikings |= {(q, 0): (0, "purple") for q in (2, 3, 4)}
    vikings |= {(9, 0): (1, "black")}
    table = build_table(
        Landscape().board(vikings),
        variant="epic",
        vikings=vikings,
        settlement_starter=0,
        out=[0, 1],
        ended=True,
    )
    result = table.game.outcome(table.state)
    assert result is not None
    # Then each player's vikings count whatever their colour: 5 and 1
    assert [s.breakdown["vikings"] for s in result.scores] == [5, 1]


def test_a_players_rune_stones_are_of_their_main_colour() -> None:
    # Given an Epic game with the Home rune, and seat 1 to play an all-plains tile
    table = build_table(
        ALL_PLAINS_TRIANGLE, variant="epic", runes=["home"], row=["PPPPPP"], active=1
    )
    # When seat 1 places its Home rune under a black (second colour) longhouse
    table.play(PlaceTile(table.ids["row0"], 1, -1, 0, True, True, "black"), 1)
    # Then the longhouse is black, but the Home stone is of seat 1's one rune colour, yellow
    view = table.game.view(table.state, 0)
    assert view.rune_stones == [RuneStoneView("home", 1, -1, 1, "yellow")]
    assert PieceView("longhouse", 1, "black", 1, -1) in view.pieces
