"""Scoring (rule book, "Winning the game"; decisions 7 and 8 in the Fjords README)."""

from __future__ import annotations

from collections.abc import Mapping

from fjords_helpers import Landscape, Table, build_table

from domain.hexgrid import Hex


def ended_table(
    players: int,
    vikings: dict[Hex, int],
    starter: int = 0,
    board: Mapping[Hex, str] | None = None,
    longhouses: Mapping[Hex, int] | None = None,
) -> Table:
    """A finished game with these pieces (every seat out); all-plains tiles unless `board`."""
    return build_table(
        board if board is not None else Landscape().board(vikings),
        players=players,
        vikings=vikings,
        longhouses=longhouses,
        settlement_starter=starter,
        out=range(players),
        ended=True,
    )


def test_no_outcome_while_the_game_goes_on() -> None:
    table = build_table(Landscape().board([(0, 0), (1, 0)]), longhouses={(0, 0): 0})
    assert table.game.outcome(table.state) is None


def test_a_point_per_viking_placed() -> None:
    # Given seat 0 placed 3 vikings and seat 1 placed 1 (both still hold some)
    vikings = {(0, 0): 0, (1, 0): 0, (2, 0): 0, (5, 0): 1}
    table = ended_table(2, vikings)
    result = table.game.outcome(table.state)
    assert result is not None
    assert [s.breakdown for s in result.scores] == [
        {"vikings": 3, "undisputed_tiles": 0},
        {"vikings": 1, "undisputed_tiles": 0},
    ]
    assert [(s.total, s.rank) for s in result.scores] == [(3, 1), (1, 2)]
    assert result.winners == [0] and result.tie_break == ""


def test_undisputed_tiles_score_for_a_player_who_placed_all_vikings() -> None:
    # Given white's longhouse at (0,0) and all 20 white vikings along row r=0 up to (20,0);
    # beyond them three vacant tiles (21..23, 0) only white can reach; (10,1) lies between a
    # white viking and yellow's longhouse at (10,2); (-1,0) is behind a mountain ridge
    line = [(q, 0) for q in range(-1, 24)]
    landscape = Landscape().paint_side((0, 0), 4, "M")  # side 4 (W) faces (-1,0)
    board = landscape.board([*line, (10, 1), (10, 2)])
    table = ended_table(
        2,
        {(q, 0): 0 for q in range(1, 21)},
        board=board,
        longhouses={(0, 0): 0, (10, 2): 1},
    )
    result = table.game.outcome(table.state)
    assert result is not None
    # Then white scores 20 + 3: the tiles reached only by white, not the disputed one (decision 7 in
    # the Fjords README: yellow's reach counts whatever its supply), nor the one behind the ridge
    assert result.scores[0].breakdown == {"vikings": 20, "undisputed_tiles": 3}
    # And yellow, with vikings left, gets no bonus for (10,1)
    assert result.scores[1].breakdown == {"vikings": 0, "undisputed_tiles": 0}


def test_a_tie_goes_to_the_player_later_in_settlement_turn_order() -> None:
    vikings = {(0, 0): 0, (1, 0): 0, (4, 0): 1, (5, 0): 1}
    # Settlement began with seat 1, so seat 0 went later: seat 0 wins
    table = ended_table(2, vikings, starter=1)
    result = table.game.outcome(table.state)
    assert result is not None
    assert result.winners == [0]
    assert [s.rank for s in result.scores] == [1, 2]
    assert "seat 0 wins" in result.tie_break and "later in turn order" in result.tie_break
    # Settlement began with seat 0: seat 1 wins
    table = ended_table(2, vikings, starter=0)
    result = table.game.outcome(table.state)
    assert result is not None and result.winners == [1]


def test_ties_below_the_top_share_a_rank() -> None:
    # Given totals 3, 1, 1: the rule book breaks ties for the win only
    vikings = {(0, 0): 0, (1, 0): 0, (2, 0): 0, (5, 0): 1, (8, 0): 2}
    table = ended_table(3, vikings)
    result = table.game.outcome(table.state)
    assert result is not None
    assert [s.rank for s in result.scores] == [1, 2, 2]
    assert result.tie_break == ""
