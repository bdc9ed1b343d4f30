"""Rune stones used instead of a normal Settlement turn: Journey, Horse and Wisdom (rule book,
"Playing Fjords with the rune stones"; decision 5 in the Fjords README for Journey and Horse)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fjords_helpers import Landscape, Table, build_table

from contracts.base import Command
from contracts.games.fjords import (
    PlaceViking,
    RuneStoneDiscarded,
    RuneStonePlaced,
    RuneStoneView,
    UseHorseRune,
    UseJourneyRune,
    UseWisdomRune,
    VikingPlaced,
)
from domain.errors import IllegalCommand
from domain.hexgrid import CORNER_NAMES, Hex

RIVAL = 1
RIVAL_CAMP = {(8, 0): "PPPPPP", (9, 0): "PPPPPP"}  # seat 1's longhouse at (9,0) and room at (8,0)


def refusal(table: Table, command: Command, seat: int = 0) -> IllegalCommand:
    before = table.game.copy_state(table.state)
    with pytest.raises(IllegalCommand) as caught:
        table.play(command, seat)
    assert table.state == before, "a refused command changes nothing"
    return caught.value


def chain_table(
    terrain: str,
    rune: str,
    alter: Callable[[Landscape], Landscape] = lambda landscape: landscape,
    vikings: dict[Hex, int] | None = None,
    stones: dict[Hex, str | tuple[str, int]] | None = None,
) -> Table:
    """Tiles (0,0) to (4,0) in a row, each joined to the next by a `terrain` corner (its SE
    corner), seat 0's longhouse at (0,0): a chain of 4 steps from it; `alter` repaints it."""
    landscape = Landscape()
    for q in range(4):
        landscape.paint((q, 0), "SE", terrain)
    board = {**alter(landscape).board([(q, 0) for q in range(5)]), **RIVAL_CAMP}
    return build_table(
        board,
        runes=[rune],
        stones=stones,
        longhouses={(0, 0): 0, (9, 0): RIVAL},
        vikings=vikings,
        settlement_starter=0,
    )


def travel_targets(table: Table, command: type) -> set[Hex]:
    return {(c.q, c.r) for c in table.game.legal_commands(table.state, 0) if isinstance(c, command)}


# --- Journey ----------------------------------------------------------------------------------


def test_journey_reaches_tiles_one_two_and_three_steps_away_along_the_sea() -> None:
    table = chain_table("S", "journey")
    # Then the tiles 1, 2 and 3 steps along the coast are listed; 4 steps is too far
    assert travel_targets(table, UseJourneyRune) == {(1, 0), (2, 0), (3, 0)}
    error = refusal(table, UseJourneyRune(0, 0, 4, 0))
    assert error.code == "fjords.journey.no_path"
    # When seat 0 travels three tiles
    events = table.play(UseJourneyRune(0, 0, 3, 0), 0)
    # Then the stone is discarded and the viking lands there; the turn passes
    assert events[:2] == [RuneStoneDiscarded(0, "journey", 0, 0), VikingPlaced(0, 3, 0, "white")]
    assert table.state.runes_held[0] == [] and table.game.to_act(table.state) == [RIVAL]


@pytest.mark.parametrize("steps", [1, 2])
def test_journey_of_one_and_two_steps(steps: int) -> None:
    table = chain_table("S", "journey")
    table.play(UseJourneyRune(0, 0, steps, 0), 0)
    assert table.state.pieces[(steps, 0)].seat == 0


def test_a_journey_path_broken_by_mountains_stops_there() -> None:
    # Given the corner between (1,0) and (2,0) is mountains, not sea
    table = chain_table("S", "journey", lambda land: land.paint((1, 0), "SE", "M"))
    # Then only the first step remains
    assert travel_targets(table, UseJourneyRune) == {(1, 0)}
    assert refusal(table, UseJourneyRune(0, 0, 2, 0)).code == "fjords.journey.no_path"
    assert refusal(table, UseJourneyRune(0, 0, 3, 0)).code == "fjords.journey.no_path"


def test_a_journey_passes_occupied_tiles_but_lands_on_a_vacant_one_without_a_stone() -> None:
    # Given rival vikings on the first two steps and a Friendship stone on the third
    table = chain_table(
        "S", "journey", vikings={(1, 0): RIVAL, (2, 0): RIVAL}, stones={(3, 0): "friendship"}
    )
    # Then the occupied tiles cannot be targets but may be passed over (decision 5 in the Fjords
    # README)
    assert refusal(table, UseJourneyRune(0, 0, 1, 0)).code == "fjords.viking.tile_occupied"
    assert refusal(table, UseJourneyRune(0, 0, 3, 0)).code == "fjords.viking.rune_stone_tile"
    assert travel_targets(table, UseJourneyRune) == set()
    # And with the stone gone the third tile is reached over the rivals' tiles
    open_sea = chain_table("S", "journey", vikings={(1, 0): RIVAL, (2, 0): RIVAL})
    assert travel_targets(open_sea, UseJourneyRune) == {(3, 0)}


def test_a_journey_target_must_contain_plains() -> None:
    # Given an all-sea tile at (2,0): the chain still runs through it
    table = chain_table("S", "journey", lambda land: land.paint((2, 0), CORNER_NAMES, "S"))
    assert refusal(table, UseJourneyRune(0, 0, 2, 0)).code == "fjords.viking.needs_plains"
    assert travel_targets(table, UseJourneyRune) == {(1, 0), (3, 0)}


def test_a_journey_sets_out_from_a_tile_with_ones_own_piece() -> None:
    table = chain_table("S", "journey")
    # Neither from the rival's longhouse nor from a vacant tile
    assert refusal(table, UseJourneyRune(9, 0, 8, 0)).code == "fjords.journey.start_not_yours"
    assert refusal(table, UseJourneyRune(4, 0, 3, 0)).code == "fjords.journey.start_not_yours"


def test_a_journey_cannot_start_from_a_tile_without_ocean() -> None:
    # Given seat 0's viking on (8,0), an all-plains tile next to the rival camp
    table = chain_table("S", "journey", vikings={(8, 0): 0})
    assert refusal(table, UseJourneyRune(8, 0, 3, 0)).code == "fjords.journey.start_without_ocean"


def test_each_rune_is_used_once_and_only_if_in_play() -> None:
    table = chain_table("S", "journey")
    table.play(UseJourneyRune(0, 0, 1, 0), 0)
    table.play(PlaceViking(8, 0), RIVAL)
    assert refusal(table, UseJourneyRune(0, 0, 3, 0)).code == "fjords.rune.already_used"
    horse_game = chain_table("S", "horse")
    assert refusal(horse_game, UseJourneyRune(0, 0, 1, 0)).code == "fjords.rune.not_in_game"


def test_a_player_with_only_a_rune_move_left_is_not_out() -> None:
    # Given seat 0's longhouse cut off by sea on its one side: no normal placement
    table = chain_table("S", "journey", lambda land: land.paint((0, 0), "NE", "S"))
    # Then seat 0 is still in, and may only use its Journey rune
    assert table.game.to_act(table.state) == [0]
    legal = table.game.legal_commands(table.state, 0)
    assert legal and all(isinstance(c, UseJourneyRune) for c in legal)


# --- Horse ------------------------------------------------------------------------------------


@pytest.mark.parametrize("steps", [1, 2, 3])
def test_horse_rides_one_two_or_three_steps_along_mountains(steps: int) -> None:
    table = chain_table("M", "horse")
    assert travel_targets(table, UseHorseRune) == {(1, 0), (2, 0), (3, 0)}
    events = table.play(UseHorseRune(0, 0, steps, 0), 0)
    assert events[:2] == [RuneStoneDiscarded(0, "horse", 0, 0), VikingPlaced(0, steps, 0, "white")]


def test_a_horse_path_broken_by_sea_stops_there() -> None:
    table = chain_table("M", "horse", lambda land: land.paint((2, 0), "SE", "S"))
    assert travel_targets(table, UseHorseRune) == {(1, 0), (2, 0)}
    assert refusal(table, UseHorseRune(0, 0, 3, 0)).code == "fjords.horse.no_path"
    assert refusal(table, UseHorseRune(0, 0, 4, 0)).code == "fjords.horse.no_path"


def test_a_horse_cannot_start_from_a_tile_without_mountains() -> None:
    table = chain_table("S", "horse")  # a chain of sea: the longhouse's tile shows no mountains
    error = refusal(table, UseHorseRune(0, 0, 1, 0))
    assert error.code == "fjords.horse.start_without_mountains"
    assert travel_targets(table, UseHorseRune) == set()


# --- Wisdom -----------------------------------------------------------------------------------

# Seat 0's longhouse on A, the empty space X, and the tile B across it; X touches only A and B.
# HOME_FIELD, next to A and away from X, leaves seat 0 a normal move so that it is never out.
A, X, B, HOME_FIELD = (0, 0), (1, 0), (2, 0), (-1, 1)
A_FACING_X = ["NE", "SE"]  # A's east side
B_FACING_X = ["SW", "NW"]  # B's west side


def wisdom_table(landscape: Landscape) -> Table:
    board = {**landscape.board([A, B, HOME_FIELD]), **RIVAL_CAMP}
    return build_table(
        board, runes=["wisdom"], longhouses={A: 0, (9, 0): RIVAL}, settlement_starter=0
    )


def wisdom_uses(table: Table) -> list[Command]:
    """The listed Wisdom uses through X (A and HOME_FIELD have spaces of their own)."""
    return [
        c
        for c in table.game.legal_commands(table.state, 0)
        if isinstance(c, UseWisdomRune) and (c.rune_q, c.rune_r) == X
    ]


def test_wisdom_crosses_an_empty_space_to_a_tile_with_plains_facing_it() -> None:
    table = wisdom_table(Landscape())
    assert wisdom_uses(table) == [UseWisdomRune(*X, *B)]
    events = table.play(UseWisdomRune(*X, *B), 0)
    assert events[:2] == [RuneStonePlaced("wisdom", *X, 0), VikingPlaced(0, *B, "white")]
    view = table.game.view(table.state, None)
    assert view.rune_stones == [RuneStoneView("wisdom", *X, 0, "white")]
    assert "Wis0" in table.game.render_text(table.state)


def test_wisdom_next_to_two_tiles_where_only_the_own_one_has_plains_facing_it() -> None:
    # Given B shows mountains on its whole edge facing the space
    table = wisdom_table(Landscape().paint(B, B_FACING_X, "M"))
    # Then there is nowhere to land: no Wisdom use is listed, and B is refused
    assert wisdom_uses(table) == []
    error = refusal(table, UseWisdomRune(*X, *B))
    assert error.code == "fjords.wisdom.target_no_plains_facing"


def test_wisdom_next_to_two_tiles_where_only_the_target_has_plains_facing_it() -> None:
    # Given A, with seat 0's longhouse, shows mountains on its edge facing the space
    table = wisdom_table(Landscape().paint(A, A_FACING_X, "M"))
    assert wisdom_uses(table) == []
    assert refusal(table, UseWisdomRune(*X, *B)).code == "fjords.wisdom.no_own_piece_facing"


def test_plains_on_half_an_edge_face_the_space() -> None:
    # Given one plains corner on each facing edge (decision 3 in the Fjords README reads a side so)
    table = wisdom_table(Landscape().paint(A, "NE", "M").paint(B, "NW", "S"))
    assert wisdom_uses(table) == [UseWisdomRune(*X, *B)]


def test_wisdom_needs_an_empty_space_next_to_two_tiles() -> None:
    table = wisdom_table(Landscape())
    # (0,-1) touches A alone; B is a tile, not a space; HOME_FIELD is not next to X
    assert refusal(table, UseWisdomRune(0, -1, 1, -1)).code == "fjords.wisdom.fewer_than_two_tiles"
    assert refusal(table, UseWisdomRune(*B, *X)).code == "fjords.wisdom.space_has_tile"
    error = refusal(table, UseWisdomRune(*X, *HOME_FIELD))
    assert error.code == "fjords.wisdom.target_not_across"
    assert refusal(table, UseWisdomRune(*X, *A)).code == "fjords.viking.tile_occupied"


def test_a_wisdom_stone_keeps_other_wisdom_stones_off_its_space() -> None:
    # Given seat 1 already put its Wisdom stone on X
    board = {**Landscape().board([A, B, HOME_FIELD]), **RIVAL_CAMP}
    table = build_table(
        board,
        runes=["wisdom"],
        stones={X: ("wisdom", RIVAL)},
        longhouses={A: 0, (9, 0): RIVAL},
        settlement_starter=0,
    )
    assert refusal(table, UseWisdomRune(*X, *B)).code == "fjords.wisdom.space_taken"
    assert wisdom_uses(table) == []
    assert table.state.runes_held == [["wisdom"], []]
