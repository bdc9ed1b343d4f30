"""The tile data: the shipped provisional set keeps the facts of the Fjords README, the file format
is checked on load, and random games place nearly all tiles."""

from __future__ import annotations

from typing import Any

import pytest
from fjords_helpers import Landscape, build_table

from contracts.games.fjords import FjordsConfig, PlaceTile
from domain.bots import RandomBot
from domain.chance import Chance
from domain.engine import decide, fold
from domain.errors import IllegalCommand
from domain.games.fjords import GAME, FjordsGame
from domain.games.fjords.tiles import TileSet, TileSetError, make_tile, parse_tile_set
from domain.hexgrid import rotate_corners

SHAPES = [  # the Fjords README: the 19 shapes of the 2005 game, up to rotation
    "MMMMMM",
    "MMMMPP",
    "MMMPPP",
    "MMPPPP",
    "MPPPPP",
    "MMPMMP",
    "MMPMPP",
    "MPMPPP",
    "MMMPSP",
    "MMPPSP",
    "MMPSPP",
    "MMPSSP",
    "MPSSPP",
    "MPSSSP",
    "PPPPPP",
    "PPPPPS",
    "PPPSSS",
    "PPSSSS",
    "PSSSSS",
]
LANDSCAPE = list(GAME.tiles.landscape.values())


def shape_of(corners: str) -> set[str]:
    return {rotate_corners(corners, k) for k in range(6)}


def test_the_shipped_set_is_marked_provisional_with_64_plus_3_tiles() -> None:
    assert GAME.tiles.provisional
    assert len(LANDSCAPE) == 64 and len(GAME.tiles.starting) == 3
    marks = [t.mark for t in LANDSCAPE]
    assert (marks.count(None), marks.count("3"), marks.count("4")) == (37, 13, 14)


def test_the_symbol_tiles_are_as_the_components_say() -> None:
    strength = [t for t in LANDSCAPE if t.symbol == "strength"]
    water = [t for t in LANDSCAPE if t.symbol == "water"]
    friendship = [t for t in LANDSCAPE if t.symbol == "friendship"]
    assert [(t.corners, t.mark) for t in strength] == [("MMMMMM", None)]
    assert [t.corners for t in LANDSCAPE].count("MMMMMM") == 1
    assert len(water) == 1 and water[0].mark is None and water[0].corners.count("S") >= 3
    assert all(t.corners == "PPPPPP" for t in friendship)
    # one per player in an N-player game: two unmarked, one "3", one "4"
    assert sorted(str(t.mark) for t in friendship) == ["3", "4", "None", "None"]


def test_every_other_tile_has_plains_and_one_of_the_19_shapes() -> None:
    known = set().union(*map(shape_of, SHAPES))
    for tile in LANDSCAPE:
        assert tile.corners in known, tile
        assert tile.symbol == "strength" or "P" in tile.corners, tile


def test_random_games_place_nearly_all_tiles() -> None:
    # Given seeded random games for 2, 3 and 4 players, played through Exploration
    shares = []
    for players in (2, 3, 4):
        for seed in range(8):
            chance = Chance(f"share {players} {seed}".encode())
            state = fold(GAME, GAME.setup(FjordsConfig(players=players), chance))
            in_play = len(state.bag) + len(state.row)
            bot = RandomBot(seed)
            while state.phase == "exploration":
                seat = GAME.to_act(state)[0]
                command = bot.choose(GAME, state, seat)
                assert command is not None
                state = fold(GAME, decide(GAME, state, command, seat, chance), state)
            shares.append((len(state.board) - 3) / in_play)
    # Then on average nearly all tiles are placed, and no game strands many
    average = sum(shares) / len(shares)
    print(f"average share of tiles placed over {len(shares)} games: {average:.3f}")
    assert average >= 0.95 and min(shares) >= 0.85


def document(**changes: Any) -> dict[str, Any]:
    tile = {"id": 1, "corners": "PPPPPP"}
    start = {"id": 2, "corners": "PPPPPP", "q": 0, "r": 0, "rotation": 0}
    data: dict[str, Any] = {"format": 1, "name": "t", "landscape": [tile], "starting": [start]}
    tile.update(changes)
    return data


@pytest.mark.parametrize(
    ("changes", "complaint"),
    [
        ({"corners": "PPPPP"}, "corners must be 6 letters"),
        ({"corners": "PPPPPX"}, "corners must be 6 letters"),
        ({"mark": "5"}, "mark must be"),
        ({"symbol": "thor"}, "symbol must be"),
        ({"id": 2}, "unique"),
        ({"corners": "PSPSSS", "regions": [[0]]}, "regions must split"),
    ],
)
def test_a_malformed_tile_file_is_refused_naming_the_problem(
    changes: dict[str, Any], complaint: str
) -> None:
    with pytest.raises(TileSetError, match=complaint):
        parse_tile_set(document(**changes))


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(TileSetError, match="format"):
        parse_tile_set({**document(), "format": 2})


def test_listed_regions_split_a_tiles_land_for_the_landmass_rule() -> None:
    # Given a coast at (1,-1): its SE and S corners are sea, its SW corner plains
    board = Landscape().paint((1, -1), ["SE", "S"], "S").board({(0, 0): "", (1, 0): "", (0, 1): ""})
    # And a tile with plains at N and at SW, sea between; placed unturned, its SW plains touch
    # the board and its N plains touch nothing
    table = build_table(board, row=["PSSSPS"])
    tile_id = table.ids["row0"]
    # When its land counts as one region (decision 1 in the Fjords README), the placement is legal
    decide(table.game, table.state, PlaceTile(tile_id, 1, -1, 0), 0, Chance(b"r"))
    # But when the data lists the two plains corners as separate regions, N is an island
    split = make_tile(tile_id, "PSSSPS", regions=[[0], [4]])
    game = FjordsGame(TileSet("split", True, {tile_id: split}, table.game.tiles.starting))
    with pytest.raises(IllegalCommand) as caught:
        decide(game, table.state, PlaceTile(tile_id, 1, -1, 0), 0, Chance(b"r"))
    assert caught.value.code == "fjords.tile.second_landmass"
    assert caught.value.details["corners"] == ["N"]
