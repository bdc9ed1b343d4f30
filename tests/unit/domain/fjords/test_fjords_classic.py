"""The Classic variant (rule book, "The Classic variant"; decision 10 in the Fjords README): draw
and place, set-aside tiles face up, the end of Exploration after the final draw, and a match of
three games.

On an all-plains board an all-plains tile fits and an all-mountain tile never does (its
corners cannot match plains), so scenarios choose placeable and unplaceable tiles by shape.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from fjords_helpers import Landscape, Table, build_table

from contracts.base import Command
from contracts.games.fjords import (
    DrawTile,
    ExplorationEnded,
    FjordsConfig,
    MatchGameStarted,
    PlaceTile,
    PlayerOut,
    SettlementEnded,
    TileDrawn,
    TilePlaced,
    TileSetAside,
    VikingPlaced,
)
from domain.bots import RandomBot
from domain.chance import Chance
from domain.engine import decide, fold
from domain.errors import IllegalCommand
from domain.games.fjords import GAME
from domain.games.fjords.state import COLOURS
from domain.hexgrid import Hex

ALL_PLAINS_TRIANGLE = {(0, 0): "PPPPPP", (1, 0): "PPPPPP", (0, 1): "PPPPPP"}
FITS, NEVER_FITS = "PPPPPP", "MMMMMM"
LONGHOUSES = {(0, 0): 0, (1, 0): 1}  # so that both can settle once Exploration ends


def refusal(table: Table, command: Command, seat: int = 0) -> IllegalCommand:
    before = table.game.copy_state(table.state)
    with pytest.raises(IllegalCommand) as caught:
        table.play(command, seat)
    assert table.state == before, "a refused command changes nothing"
    return caught.value


def classic(**options: Any) -> Table:
    return build_table(ALL_PLAINS_TRIANGLE, variant="classic", **options)


def test_classic_has_no_row_and_each_turn_starts_by_drawing() -> None:
    # Given a new Classic game: the 2-player tile set in the bag, nothing face up
    state = fold(GAME, GAME.setup(FjordsConfig(players=2, variant="classic"), Chance(b"c")))
    assert state.row == [] and len(state.bag) == 37
    # Then the first player may only draw
    seat = GAME.to_act(state)[0]
    assert GAME.legal_commands(state, seat) == [DrawTile()]
    view = GAME.view(state, None)
    assert (view.row, view.drawn, view.set_aside, view.match_game) == ([], None, [], 1)


def test_a_drawn_tile_that_fits_must_be_placed_by_the_drawer() -> None:
    # Given a bag of tiles that fit
    table = classic(bag=[FITS, FITS])
    # When seat 0 draws
    events = table.play(DrawTile(), 0)
    # Then it holds the tile, face up, and must place it: drawing again is refused
    assert len(events) == 1 and isinstance(events[0], TileDrawn)
    drawn = events[0].tile
    assert table.state.drawn == drawn and table.game.to_act(table.state) == [0]
    assert table.game.view(table.state, 1).drawn is not None
    assert refusal(table, DrawTile()).code == "fjords.draw.already_drawn"
    legal = table.game.legal_commands(table.state, 0)
    assert legal and all(isinstance(c, PlaceTile) and c.tile == drawn for c in legal)
    other = next(t for t in table.state.bag)
    assert refusal(table, PlaceTile(other, 1, -1, 0)).code == "fjords.tile.not_drawn"
    # When it places the tile, the turn passes
    table.play(PlaceTile(drawn, 1, -1, 0), 0)
    assert table.state.drawn is None and table.game.to_act(table.state) == [1]


def test_an_unplaceable_drawn_tile_is_set_aside_face_up_and_the_next_is_drawn() -> None:
    # Given a bag holding one tile that fits nowhere, one that fits, and one more
    orders_seen = set()
    for seed in range(12):
        table = classic(bag=[NEVER_FITS, FITS, FITS])
        never = table.ids["bag0"]
        events = table.play(DrawTile(), 0, Chance(bytes([seed])))
        drawn = [e.tile for e in events if isinstance(e, TileDrawn)]
        orders_seen.add(drawn[0] == never)
        if drawn[0] == never:
            # Then the unplaceable tile is set aside and the player draws again at once
            assert events[1] == TileSetAside(never) and len(drawn) == 2
            assert table.state.set_aside == [never] and table.state.drawn == drawn[1]
            assert [t.tile for t in table.game.view(table.state, 1).set_aside] == [never]
        else:
            assert len(events) == 1 and table.state.set_aside == []
        assert table.game.to_act(table.state) == [0]
    assert orders_seen == {True, False}


def test_a_set_aside_tile_may_be_placed_instead_of_drawing() -> None:
    # Given a set-aside tile that fits now, and one that does not
    table = classic(set_aside=[FITS, NEVER_FITS], bag=[FITS])
    fits, never = table.ids["set_aside0"], table.ids["set_aside1"]
    # Then seat 0 may draw or place the fitting set-aside tile, not the other
    legal = table.game.legal_commands(table.state, 0)
    assert DrawTile() in legal
    assert {c.tile for c in legal if isinstance(c, PlaceTile)} == {fits}
    assert refusal(table, PlaceTile(never, 1, -1, 0)).code == "fjords.tile.corner_mismatch"
    # When it places the set-aside tile
    events = table.play(PlaceTile(fits, 1, -1, 0), 0)
    # Then nothing is drawn and the turn passes
    assert events == [TilePlaced(0, fits, 1, -1, 0, "PPPPPP")]
    assert table.state.set_aside == [never] and len(table.state.bag) == 1
    assert table.game.to_act(table.state) == [1]


def test_after_drawing_a_set_aside_tile_may_not_be_placed_instead() -> None:
    table = classic(set_aside=[FITS], bag=[FITS])
    table.play(DrawTile(), 0)
    error = refusal(table, PlaceTile(table.ids["set_aside0"], 1, -1, 0))
    assert error.code == "fjords.tile.not_drawn"


def test_the_last_drawn_tile_placed_ends_exploration_and_the_next_player_settles_first() -> None:
    # Given one tile left in the bag (it fits) and a set-aside tile that never will
    table = classic(bag=[FITS], set_aside=[NEVER_FITS], longhouses=LONGHOUSES)
    table.play(DrawTile(), 0)
    # When seat 0 places the final drawn tile
    events = table.play(PlaceTile(table.ids["bag0"], 1, -1, 0), 0)
    # Then Exploration ends with the set-aside tile unplaced, and seat 1 starts Settlement
    assert ExplorationEnded("last_drawn_tile_placed", 1, 1) in events
    assert table.state.phase == "settlement" and table.game.to_act(table.state) == [1]


def test_the_last_drawn_tile_unplaceable_ends_exploration_and_its_drawer_settles_first() -> None:
    # Given one tile left in the bag, which fits nowhere
    table = classic(bag=[NEVER_FITS], longhouses=LONGHOUSES)
    never = table.ids["bag0"]
    # When seat 0 draws it
    events = table.play(DrawTile(), 0)
    # Then it is set aside, Exploration ends, and seat 0, who drew it, starts Settlement
    assert events[:3] == [
        TileDrawn(never, 1),
        TileSetAside(never),
        ExplorationEnded("last_drawn_tile_set_aside", 1, 0),
    ]
    assert table.state.phase == "settlement" and table.game.to_act(table.state) == [0]


def test_drawing_is_only_for_classic_exploration() -> None:
    base = build_table(ALL_PLAINS_TRIANGLE, row=[FITS], bag=[FITS])
    assert refusal(base, DrawTile()).code == "fjords.draw.not_classic"
    settling = classic(longhouses=LONGHOUSES, settlement_starter=0)
    assert refusal(settling, DrawTile()).code == "fjords.phase.not_exploration"
    assert refusal(classic(bag=[FITS]), DrawTile(), seat=1).code == "turn.not_yours"


# --- the match --------------------------------------------------------------------------------

STRIP = [(q, 0) for q in range(8)]


def finished_match(games: Sequence[Mapping[Hex, int]], starters: Sequence[int]) -> Table:
    """A Classic match whose games ended with these vikings (seat by tile) and Settlement
    starters, written as the events the engine emits between games."""
    table = build_table(
        Landscape().board(STRIP),
        variant="classic",
        vikings=games[0],
        settlement_starter=starters[0],
        out=[0, 1],
        ended=True,
    )
    for number, (vikings, starter) in enumerate(zip(games[1:], starters[1:], strict=True), 2):
        events = [MatchGameStarted(number, 0, 10 * number)]
        events += [
            TilePlaced(None, s.tile.id, *s.position, 0, s.tile.corners)
            for s in table.game.tiles.starting
        ]
        events += [VikingPlaced(seat, q, r, COLOURS[seat]) for (q, r), seat in vikings.items()]
        events += [ExplorationEnded("last_drawn_tile_placed", 0, starter)]
        events += [PlayerOut(0, "no_legal_placement"), PlayerOut(1, "no_legal_placement")]
        events += [SettlementEnded()]
        table.state = fold(table.game, events, table.state)
    return table


def test_the_match_combines_the_three_games_scores() -> None:
    # Given three games: 3 to 1 vikings, then 0 to 4, then 1 to 1
    games = [
        {(0, 0): 0, (1, 0): 0, (2, 0): 0, (5, 0): 1},
        {(4, 0): 1, (5, 0): 1, (6, 0): 1, (7, 0): 1},
        {(0, 0): 0, (7, 0): 1},
    ]
    table = finished_match(games, starters=[0, 1, 0])
    result = table.game.outcome(table.state)
    assert result is not None
    # Then the totals are 3+0+1 = 4 and 1+4+1 = 6, with each game's points listed
    assert [s.total for s in result.scores] == [4, 6]
    assert result.scores[0].breakdown == {
        "game_1_vikings": 3,
        "game_1_undisputed_tiles": 0,
        "game_2_vikings": 0,
        "game_2_undisputed_tiles": 0,
        "game_3_vikings": 1,
        "game_3_undisputed_tiles": 0,
    }
    assert result.winners == [1] and result.tie_break == ""
    # And the view shows each game's own result
    view = table.game.view(table.state, None)
    assert view.match_game == 3
    assert [[s.total for s in game.scores] for game in view.match_results] == [
        [3, 1],
        [0, 4],
        [1, 1],
    ]


def test_a_tied_match_goes_to_the_later_player_in_the_final_games_settlement_order() -> None:
    # Given totals of 2 each; the final game's Settlement began with seat 1, so seat 0 went later
    games = [{(0, 0): 0}, {(5, 0): 1}, {(1, 0): 0, (6, 0): 1}]
    table = finished_match(games, starters=[0, 0, 1])
    result = table.game.outcome(table.state)
    assert result is not None
    assert [s.total for s in result.scores] == [2, 2]
    assert result.winners == [0] and "final game" in result.tie_break


def test_no_outcome_before_the_third_game_ends() -> None:
    # Given a match two games in
    table = finished_match([{(0, 0): 0}, {(5, 0): 1}], starters=[0, 0])
    # Then the game is not over, whatever the second game's end says
    assert table.game.outcome(table.state) is None
    assert table.game.view(table.state, None).outcome is None


def test_a_random_classic_match_plays_three_games_in_one_stream() -> None:
    # Given a Classic match played to the end by random bots
    chance = Chance(b"classic match")
    events = GAME.setup(FjordsConfig(players=2, variant="classic"), chance)
    state = fold(GAME, events)
    bot = RandomBot(3)
    while acting := GAME.to_act(state):
        command = bot.choose(GAME, state, acting[0])
        assert command is not None
        new = decide(GAME, state, command, acting[0], chance)
        if any(isinstance(e, MatchGameStarted) for e in new):
            # Then each new game starts on a fresh table with full supplies and bag
            fresh = fold(GAME, new, GAME.copy_state(state))
            assert len(fresh.board) == 3 and not fresh.pieces and not fresh.set_aside
            assert len(fresh.bag) == 37 and fresh.vikings_left(0) == fresh.vikings_left(1) == 20
        events += new
        state = fold(GAME, new, state)
    assert [e.game for e in events if isinstance(e, MatchGameStarted)] == [2, 3]
    assert sum(isinstance(e, SettlementEnded) for e in events) == 3
    # And the combined score is each game's own score added up
    result = GAME.outcome(state)
    assert result is not None
    per_game = GAME.view(state, None).match_results
    assert len(per_game) == 3
    for seat in (0, 1):
        assert result.scores[seat].total == sum(game.scores[seat].total for game in per_game)
    # And replaying the stream gives the same match
    assert fold(GAME, events) == state
