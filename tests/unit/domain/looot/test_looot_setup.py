"""Setting up the table, and the component data it is built from.

Facts from the Looot README (Data provenance): 8 faces of 25 hexes (20 resources: 6 Axe, 6 Wood,
5 Sheep, 3 Gold; 5 buildings); building stacks of 2 / 2 / 3; 43 building tiles (18 House,
16 Watchtower, 9 Castle); 30 Longships; 15 construction sites; a 34-space Fjord; 13 Vikings
and 3 Shields each; the market holds 5 Longships from the bag.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations, product

import pytest
from looot_helpers import SEED, real_table

from contracts.games.looot import GameSetUp, LongshipDrawn, LoootConfig, LoootPlaceViking
from domain.chance import Chance
from domain.engine import fold
from domain.errors import IllegalCommand
from domain.games.looot import GAME
from domain.games.looot.board import assemble, face_picture, parse_picture, physical_board
from domain.games.looot.components import LONGSHIPS, SITE_CARDS
from domain.games.looot.fjord import SITE_SPACES, TILE_SPACES
from domain.games.looot.legal import legal_commands
from domain.hexgrid import neighbours

PLAYER_COUNTS = (2, 3, 4)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_setup_lays_out_the_table_for_each_player_count(players: int) -> None:
    table = real_table(players)
    state = table.state

    # One face per player from different boards, plus the ocean and trophy boards' 4 hexes
    assert len({physical_board(face) for face in state.faces}) == players
    assert len(state.board.land) == 25 * players + 4
    assert len(state.board.ocean) == 5
    for space, left in state.stacks.items():
        assert left == {"house": 2, "watchtower": 2, "castle": 3}[state.board.land[space]]
    assert len(state.stacks) == 5 * players
    # Five Longships in the ocean, the other 25 in the bag
    assert None not in state.market
    assert sorted([*state.market, *state.bag]) == sorted(LONGSHIPS)
    assert len(state.bag) == 25
    # Each player: 13 Vikings, 3 Shields, one card of each construction site, all different
    for player in state.players:
        assert player.vikings_left == 13
        assert player.shields == {"second_viking", "occupied_space", "double_resource"}
        assert player.tiles == {}
    for site in ("port", "altar", "jarl_palace"):
        cards = [player.sites[site] for player in state.players]
        assert len(set(cards)) == players
        assert set(cards) <= {1, 2, 3, 4, 5}
    assert state.turn is not None
    assert state.turn.seat == state.first_seat
    assert GAME.to_act(state) == [state.first_seat]
    assert all(holder is None for holder in state.trophies.values())


def test_four_players_use_every_building_tile() -> None:
    state = real_table(4).state

    tiles = Counter()
    for space, left in state.stacks.items():
        tiles[state.board.land[space]] += left

    assert tiles == {"house": 18, "watchtower": 16, "castle": 9}


def test_every_random_draw_is_numbered_and_recorded() -> None:
    events = GAME.setup(LoootConfig(players=3), Chance(SEED))

    setup, *drawn = events
    assert isinstance(setup, GameSetUp)
    assert [type(event) for event in drawn] == [LongshipDrawn] * 5
    assert [event.draw for event in drawn] == list(range(setup.draws, setup.draws + 5))
    assert [event.slot for event in drawn] == [0, 1, 2, 3, 4]
    assert fold(GAME, events).draws == setup.draws + 5


def test_different_seeds_give_different_tables() -> None:
    tables = {
        repr(GAME.setup(LoootConfig(players=3), Chance(bytes([seed]) * 32))) for seed in range(5)
    }

    assert len(tables) == 5


def test_the_first_vikings_may_land_only_next_to_the_longships() -> None:
    state = real_table(2).state
    shore = {space for slot in state.board.shore for space in slot}

    spaces = {command.space for command in legal_commands(state, state.first_seat)}

    assert isinstance(legal_commands(state, state.first_seat)[0], LoootPlaceViking)
    assert spaces == {space for space in shore if not state.board.is_building(space)}


def test_a_config_may_fix_the_faces() -> None:
    state = fold(GAME, GAME.setup(LoootConfig(players=2, faces=(8, 3)), Chance(SEED)))

    assert state.faces == (8, 3)
    assert state.board == assemble((8, 3))


@pytest.mark.parametrize(
    ("config", "code"),
    [
        (LoootConfig(players=1), "looot.config.players"),
        (LoootConfig(players=5), "looot.config.players"),
        (LoootConfig(players=2, faces=(1, 2)), "looot.config.faces"),  # both sides of board 1
        (LoootConfig(players=2, faces=(1,)), "looot.config.faces"),
        (LoootConfig(players=2, faces=(1, 9)), "looot.config.faces"),
    ],
)
def test_a_bad_config_is_refused(config: LoootConfig, code: str) -> None:
    with pytest.raises(IllegalCommand) as refused:
        GAME.setup(config, Chance(SEED))

    assert refused.value.code == code


# --- The component data --------------------------------------------------------------------


@pytest.mark.parametrize("face", range(1, 9))
def test_each_face_has_the_published_spaces(face: int) -> None:
    letters = Counter(letter for _, letter in parse_picture(face_picture(face)))

    assert sum(letters.values()) == 25
    assert {letter: letters[letter] for letter in "XWSG"} == {"X": 6, "W": 6, "S": 5, "G": 3}
    assert sum(letters[letter] for letter in "HTC") == 5


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_every_choice_of_faces_makes_a_playable_board(players: int) -> None:
    for boards in permutations((1, 2, 3, 4), players):
        for sides in product((0, 1), repeat=players):
            faces = tuple(2 * board - 1 + side for board, side in zip(boards, sides, strict=True))
            board = assemble(faces)
            resources = {s for s, terrain in board.land.items() if not board.is_building(s)}
            # Every ocean space touches a resource space where a first Viking can land
            assert all(set(shore) & resources for shore in board.shore), faces
            # The resource spaces form one region, so a Viking can always land somewhere
            reached = {next(iter(resources))}
            frontier = list(reached)
            while frontier:
                for near in board.neighbours[frontier.pop()]:
                    if near in resources and near not in reached:
                        reached.add(near)
                        frontier.append(near)
            assert reached == resources, faces
            assert len(resources) > 13 * players


def test_the_longships_are_the_published_thirty() -> None:
    by_type = Counter(ship.boosts for ship in LONGSHIPS.values())

    assert sorted(LONGSHIPS) == list(range(1, 31))
    assert by_type == {"castle": 4, "gold": 4, "watchtower": 5, "sheep": 6, "wood": 6, "house": 5}
    assert all(len(ship.needs) == 3 for ship in LONGSHIPS.values())


def test_the_fjord_has_34_spaces_and_room_around_each_site() -> None:
    assert len(TILE_SPACES) == 34
    assert {site: len(cards) for site, cards in SITE_CARDS.items()} == {
        "port": 5,
        "altar": 5,
        "jarl_palace": 5,
    }
    assert {cards[0].points for cards in SITE_CARDS.values()} == {5, 7, 9}
    for site, space in SITE_SPACES.items():
        room = [near for near in neighbours(space) if near in TILE_SPACES]
        assert all(len(card.needs) <= len(room) for card in SITE_CARDS[site]), site
