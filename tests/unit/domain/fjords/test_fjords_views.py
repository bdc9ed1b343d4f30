"""What a seat sees (everything on the table, never the bag's content) and the text drawing."""

from __future__ import annotations

import msgspec
from fjords_helpers import Landscape, build_table

from contracts.games.fjords import FjordsConfig, FjordsView, PieceView, PlaceTile, SeatView
from domain.chance import Chance
from domain.engine import decide, fold
from domain.games.fjords import GAME


def test_a_view_shows_the_table_and_only_the_size_of_the_bag() -> None:
    # Given a game after one tile with a longhouse
    chance = Chance(b"view seed")
    state = fold(GAME, GAME.setup(FjordsConfig(players=3), chance))
    seat = GAME.to_act(state)[0]
    command = next(
        c for c in GAME.legal_commands(state, seat) if isinstance(c, PlaceTile) and c.longhouse
    )
    state = fold(GAME, decide(GAME, state, command, seat, chance), state)
    # When seat 0 looks
    view = GAME.view(state, 0)
    # Then it sees every tile with its corners, the piece, the row, supplies and whose turn
    assert {(t.q, t.r): t.corners for t in view.tiles} == {
        h: placed.corners for h, placed in state.board.items()
    }
    assert view.pieces == [
        PieceView("longhouse", seat, view.seats[seat].supply[0].colour, command.q, command.r)
    ]
    assert [t.tile for t in view.row] == state.row and len(view.row) == 4
    assert view.bag_size == len(state.bag) and view.phase == "exploration"
    assert view.to_act == [(seat + 1) % 3]
    assert view.seats[seat].supply[0].longhouses == 3 and view.outcome is None
    # And nothing of the bag: the view is the same whatever the bag holds
    scrambled = GAME.scramble_hidden(state, 0, Chance(b"other"))
    assert scrambled.bag != state.bag
    assert GAME.view(scrambled, 0) == view
    # And it survives the wire
    wire = msgspec.json.encode(view)
    assert msgspec.json.decode(wire, type=FjordsView) == view
    assert b'"bag"' not in wire


def test_spectators_see_what_players_see() -> None:
    state = fold(GAME, GAME.setup(FjordsConfig(players=2), Chance(b"s")))
    assert msgspec.structs.replace(GAME.view(state, None), viewer=1) == GAME.view(state, 1)


def test_the_final_view_carries_the_scores() -> None:
    vikings = {(0, 0): 0, (1, 0): 1}
    table = build_table(
        Landscape().board(vikings), vikings=vikings, settlement_starter=0, out=[0, 1], ended=True
    )
    view = table.game.view(table.state, None)
    assert view.phase == "ended" and view.to_act == []
    assert view.outcome == table.game.outcome(table.state)
    assert view.seats[1] == SeatView(1, view.seats[1].supply, 1, True)


def test_the_text_drawing_shows_tiles_pieces_row_and_turn() -> None:
    board = Landscape().paint((0, 0), ["N"], "M").board([(0, 0), (1, 0), (0, 1)])
    table = build_table(board, row=["PPPPPS"], bag=["PPPPPP"], longhouses={(1, 0): 1})
    table.play(PlaceTile(table.ids["row0"], -1, 1, 0), 0)
    text = table.game.render_text(table.state)
    assert "exploration, seat 1 to act" in text
    assert "L1" in text  # seat 1's longhouse
    assert "P M P" in text  # the top corners (NW N NE) of the tile at (0,0)
    assert f"row: [{table.ids['bag0']} PPPPPP]" in text
