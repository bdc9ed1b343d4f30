"""Settlement Phase rules (rule book, "Taking a turn during the Settlement Phase") and its two
pictured examples, rebuilt by hand from their descriptions."""

from __future__ import annotations

import pytest
from fjords_helpers import Landscape, Table, build_table

from contracts.games.fjords import PlaceViking, PlayerOut, SettlementEnded, VikingPlaced
from domain.errors import IllegalCommand
from domain.hexgrid import Hex

WHITE, YELLOW, PURPLE = 0, 1, 2
BLACK = 0  # the aerial example has two players: black (seat 0) and yellow (seat 1)


def targets(table: Table, seat: int) -> set[Hex]:
    commands = table.game.legal_commands(table.state, seat)
    return {(c.q, c.r) for c in commands if isinstance(c, PlaceViking)}


def refusal(table: Table, position: Hex, seat: int) -> IllegalCommand:
    before = table.game.copy_state(table.state)
    with pytest.raises(IllegalCommand) as caught:
        table.play(PlaceViking(*position), seat)
    assert table.state == before
    return caught.value


# The aerial example: yellow longhouse Y, black longhouse K; B and C touch both, A touches
# yellow's longhouse and C, D touches only black's. X, between B and D, is walled off by
# mountains, so the only plains path from B to D runs through K.
Y, K, A, B, C, D, X = (0, 0), (1, 0), (-1, 1), (1, -1), (0, 1), (2, 0), (2, -1)


def aerial_example(starter: int = BLACK) -> Table:
    landscape = Landscape().paint(X, ["SE", "S", "SW", "NW"], "M")
    board = landscape.board([Y, K, A, B, C, D, X])
    return build_table(board, longhouses={Y: YELLOW, K: BLACK}, settlement_starter=starter)


def test_aerial_example_who_may_claim_which_tile() -> None:
    # D only black (adjacent to black's longhouse, not yellow's); B and C both; A only yellow
    assert targets(aerial_example(starter=BLACK), BLACK) == {B, C, D}
    assert targets(aerial_example(starter=YELLOW), YELLOW) == {A, B, C}


def test_aerial_example_black_on_c_opens_a_to_black() -> None:
    table = aerial_example(starter=BLACK)
    table.play(PlaceViking(*C), BLACK)
    table.play(PlaceViking(*B), YELLOW)
    assert A in targets(table, BLACK)


def test_aerial_example_yellow_on_c_blocks_a_from_black() -> None:
    table = aerial_example(starter=YELLOW)
    table.play(PlaceViking(*C), YELLOW)
    assert targets(table, BLACK) == {B, D}
    assert refusal(table, A, BLACK).code == "fjords.viking.not_adjacent"


def test_aerial_example_yellow_cannot_reach_d_even_from_b() -> None:
    table = aerial_example(starter=YELLOW)
    table.play(PlaceViking(*B), YELLOW)
    table.play(PlaceViking(*C), BLACK)
    # The plains path from B to D passes through the black longhouse; X is behind mountains
    assert D not in targets(table, YELLOW)
    assert refusal(table, D, YELLOW).code == "fjords.viking.not_adjacent"
    assert refusal(table, X, YELLOW).code == "fjords.viking.not_connected_by_plains"


# The settlement example: white's longhouse W sits in a corner of the board; yellow's Y is
# nearby, purple plays elsewhere. D touches B, but a mountain range runs between them (and
# between D and H); C goes round it.
W, VA, VB, VC, VD, H, YL, G, PL, P1 = (
    (0, 0),
    (1, 0),
    (0, 1),
    (-1, 2),
    (0, 2),
    (1, 1),
    (2, 0),
    (2, 1),
    (5, 0),
    (6, 0),
)


def settlement_example(starter: int = WHITE) -> Table:
    landscape = Landscape().paint(VB, ["SE", "S"], "M").paint(H, ["S"], "M")
    board = landscape.board([W, VA, VB, VC, VD, H, YL, G, PL, P1])
    longhouses = {W: WHITE, YL: YELLOW, PL: PURPLE}
    return build_table(board, players=3, longhouses=longhouses, settlement_starter=starter)


def test_settlement_example_white_blocks_yellow_then_goes_round_the_mountains() -> None:
    # Yellow could reach the land around the white longhouse through A, or through H and B
    assert {VA, H} <= targets(settlement_example(starter=YELLOW), YELLOW)
    table = settlement_example()
    # White's first turn: viking A; yellow moves towards B; purple plays elsewhere
    table.play(PlaceViking(*VA), WHITE)
    table.play(PlaceViking(*H), YELLOW)
    table.play(PlaceViking(*P1), PURPLE)
    # White's second turn: viking B, which shuts yellow out of C and D
    table.play(PlaceViking(*VB), WHITE)
    table.play(PlaceViking(*G), YELLOW)
    assert table.state.out == [False, False, True]  # purple has nowhere left
    # D touches B but is cut off from it by the mountain range: not before C
    assert targets(table, WHITE) == {VC}
    assert refusal(table, VD, WHITE).code == "fjords.viking.not_connected_by_plains"
    table.play(PlaceViking(*VC), WHITE)
    assert table.state.out == [False, True, True]  # yellow cannot get to C or D
    table.play(PlaceViking(*VD), WHITE)
    # Then nobody can place: the game is over
    assert table.state.phase == "ended"


def test_a_viking_needs_a_vacant_tile_with_plains() -> None:
    landscape = Landscape().paint((1, 0), ["N", "NE", "SE", "S", "SW", "NW"], "M")
    board = landscape.board([(0, 0), (1, 0), (0, 1)])
    table = build_table(board, longhouses={(0, 0): 0, (0, 1): 1}, settlement_starter=0)
    assert refusal(table, (1, 0), 0).code == "fjords.viking.needs_plains"
    assert refusal(table, (0, 1), 0).code == "fjords.viking.tile_occupied"
    assert refusal(table, (3, 3), 0).code == "fjords.viking.no_tile"
    assert refusal(table, (0, 1), 1).code == "turn.not_yours"


def test_players_who_cannot_place_are_out_and_settlement_ends_when_all_are() -> None:
    # Given a strip of plains with seat 0's longhouse at (0,0) and seat 1's at (4,0)
    board = Landscape().board([(q, 0) for q in range(-2, 5)])
    table = build_table(board, longhouses={(0, 0): 0, (4, 0): 1}, settlement_starter=1)
    table.play(PlaceViking(3, 0), 1)
    table.play(PlaceViking(1, 0), 0)
    table.play(PlaceViking(2, 0), 1)
    # When seat 0 takes (-1,0), seat 1 has nowhere left: it is out, and seat 0 plays again
    assert table.play(PlaceViking(-1, 0), 0) == [
        VikingPlaced(0, -1, 0, "white"),
        PlayerOut(1, "no_legal_placement"),
    ]
    assert table.game.to_act(table.state) == [0]
    # Then once seat 0 is out too the phase ends
    assert table.play(PlaceViking(-2, 0), 0) == [
        VikingPlaced(0, -2, 0, "white"),
        PlayerOut(0, "no_legal_placement"),
        SettlementEnded(),
    ]
    assert table.game.to_act(table.state) == []
    assert refusal(table, (1, 0), 0).code == "game.finished"


def test_a_player_out_of_vikings_is_out() -> None:
    line = [(q, 0) for q in range(22)]
    vikings = {position: 0 for position in line[1:20]}  # 19 of white's 20 vikings placed
    table = build_table(
        Landscape().board(line), longhouses={(0, 0): 0}, vikings=vikings, settlement_starter=0
    )
    events = table.play(PlaceViking(20, 0), 0)
    assert PlayerOut(0, "no_vikings_left") in events
