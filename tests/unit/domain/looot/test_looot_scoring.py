"""Final scoring and the tie-break.

Rules summary "Game End" and the Looot README (Rules, Scoring): per type,
(base + bonuses of the player's filled Longships of that type) x tiles of that type, with
base values Wood 1, Sheep 1, Gold 2, House 1, Watchtower 2, Castle 4, Axe 0; completed sites
score their value, the Trophy its value, each unfilled Longship -5. Ties: the highest Trophy
wins; if neither holds one, the victory is shared.
"""

from __future__ import annotations

from looot_helpers import CASTLE_XXW, WOOD_XXW, Table, drawn_table

from contracts.games.looot import Tile
from domain.games.looot import GAME
from domain.games.looot.fjord import TILE_SPACES


def with_tiles(table: Table, seat: int, tiles: list[Tile]) -> None:
    """Given: these tiles on the seat's Fjord (where does not matter for scoring)."""
    table.fjord(seat, dict(zip(TILE_SPACES, tiles, strict=False)))


def game_over(players: int = 2) -> Table:
    table = drawn_table(["OX"], players=players)
    table.state.turn = None
    return table


def test_each_scoring_rule_has_its_line_in_the_breakdown() -> None:
    table = game_over()
    tiles: list[Tile] = ["wood"] * 3 + ["sheep"] * 2 + ["gold", "house", "house"]
    with_tiles(table, 0, [*tiles, "watchtower", "castle", "axe", "axe"])
    player = table.player(0)
    player.longships.update({TILE_SPACES[-1]: WOOD_XXW, TILE_SPACES[-2]: CASTLE_XXW})
    player.filled.add(WOOD_XXW)  # the Castle Longship stays unfilled
    player.completed.add("port")  # the Port card 1 is worth 5
    player.trophy = 2
    table.state.trophies[2] = 0

    outcome = GAME.outcome(table.state)

    assert outcome is not None
    score = outcome.scores[0]
    assert score.breakdown == {
        "wood": 6,  # (1 + 1 from the filled Wood Longship) x 3
        "sheep": 2,
        "gold": 2,
        "house": 2,
        "watchtower": 2,
        "castle": 4,  # no bonus: its Longship is not filled
        "construction_sites": 5,
        "trophy": 3,
        "unfilled_longships": -5,
    }
    assert score.total == 21


def test_no_outcome_while_the_game_goes_on() -> None:
    assert GAME.outcome(drawn_table(["OX"]).state) is None


def test_the_most_points_wins() -> None:
    table = game_over()
    with_tiles(table, 0, ["gold"])
    with_tiles(table, 1, ["wood"])

    outcome = GAME.outcome(table.state)

    assert outcome is not None
    assert outcome.winners == [0]
    assert [score.rank for score in outcome.scores] == [1, 2]
    assert outcome.tie_break == ""


def test_a_tie_goes_to_the_player_with_a_trophy() -> None:
    # Seat 0: 1 wood + the 2-Axe Trophy (3) = 4; seat 1: 4 wood = 4
    table = game_over()
    with_tiles(table, 0, ["wood"])
    table.player(0).trophy = 2
    with_tiles(table, 1, ["wood"] * 4)

    outcome = GAME.outcome(table.state)

    assert outcome is not None
    assert [score.total for score in outcome.scores] == [4, 4]
    assert outcome.winners == [0]
    assert outcome.tie_break == "highest trophy"


def test_a_tie_between_trophy_holders_goes_to_the_highest_trophy() -> None:
    # Seat 0: the 3-Axe Trophy (6); seat 1: the 2-Axe Trophy (3) + 3 wood = 6
    table = game_over()
    table.player(0).trophy = 3
    table.player(1).trophy = 2
    with_tiles(table, 1, ["wood"] * 3)

    outcome = GAME.outcome(table.state)

    assert outcome is not None
    assert outcome.winners == [0]
    assert [score.rank for score in outcome.scores] == [1, 2]


def test_without_trophies_tied_players_share_the_victory() -> None:
    table = game_over(players=3)
    with_tiles(table, 0, ["gold"])
    with_tiles(table, 1, ["wood", "sheep"])
    with_tiles(table, 2, ["wood"])

    outcome = GAME.outcome(table.state)

    assert outcome is not None
    assert outcome.winners == [0, 1]
    assert [score.rank for score in outcome.scores] == [1, 1, 3]
    assert outcome.tie_break == "shared victory"
