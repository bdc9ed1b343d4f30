"""Setting up a game (rule book, "Setting up the game"; the Fjords README, Data provenance)."""

from __future__ import annotations

import pytest

from contracts.games.fjords import FjordsConfig, GameStarted, TileDrawn, TilePlaced
from domain.chance import Chance, draw_below
from domain.engine import Game, fold
from domain.errors import IllegalCommand
from domain.games import get_game
from domain.games.fjords import GAME

SEED = b"fjords setup test seed, 32 byte"


def test_fjords_is_registered_and_meets_the_game_protocol() -> None:
    assert get_game("fjords") is GAME
    assert isinstance(GAME, Game)


@pytest.mark.parametrize(("players", "tiles_in_play"), [(2, 37), (3, 37 + 13), (4, 64)])
def test_the_bag_and_row_hold_the_tiles_for_the_player_count(
    players: int, tiles_in_play: int
) -> None:
    # 2 players: the 37 unmarked tiles; 3: plus the 13 marked "3"; 4: all 64
    state = fold(GAME, GAME.setup(FjordsConfig(players=players), Chance(SEED)))
    assert len(state.row) == 4
    assert len(state.bag) + len(state.row) == tiles_in_play
    marks = {GAME.tiles.tile(t).mark for t in [*state.bag, *state.row]}
    assert marks == {2: {None}, 3: {None, "3"}, 4: {None, "3", "4"}}[players]


def test_the_three_starting_tiles_lie_as_pictured() -> None:
    events = GAME.setup(FjordsConfig(players=2), Chance(SEED))
    placed = {(e.q, e.r): e.corners for e in events if isinstance(e, TilePlaced)}
    assert placed == {(0, 0): "PSPPMM", (-1, 1): "MPPPPP", (0, 1): "PPPPPP"}


def test_each_player_gets_20_vikings_and_4_longhouses_of_their_own_colour() -> None:
    state = fold(GAME, GAME.setup(FjordsConfig(players=4), Chance(SEED)))
    colours = [supply.colour for seat in state.supplies for supply in seat]
    assert len(set(colours)) == 4
    assert all(state.vikings_left(s) == 20 and state.longhouses_left(s) == 4 for s in range(4))


def test_every_random_outcome_is_recorded_and_can_be_re_derived_from_the_seed() -> None:
    # Given a 3-player setup
    events = GAME.setup(FjordsConfig(players=3), Chance(SEED))
    started = events[0]
    assert isinstance(started, GameStarted)
    # Then the starting player is draw number first_player_draw among the 3 seats
    assert started.first_player == draw_below(SEED, started.first_player_draw, 3)
    assert GAME.to_act(fold(GAME, events)) == [started.first_player]
    # And each drawn tile is its draw's pick among the bag's tiles sorted by id
    bag = sorted(t.id for t in GAME.tiles.landscape.values() if t.mark != "4")
    drawn = [e for e in events if isinstance(e, TileDrawn)]
    assert len(drawn) == 4 and len({e.draw for e in drawn} | {started.first_player_draw}) == 5
    for event in drawn:
        assert event.tile == bag.pop(draw_below(SEED, event.draw, len(bag)))


def test_the_same_seed_sets_up_the_same_game_and_another_seed_another() -> None:
    config = FjordsConfig(players=4)
    assert GAME.setup(config, Chance(SEED)) == GAME.setup(config, Chance(SEED))
    assert GAME.setup(config, Chance(SEED)) != GAME.setup(config, Chance(b"another seed"))


@pytest.mark.parametrize(
    ("config", "code"),
    [
        (FjordsConfig(players=1), "fjords.config.players"),
        (FjordsConfig(players=5), "fjords.config.players"),
        (FjordsConfig(players=2, variant="grand"), "fjords.config.variant_unknown"),  # type: ignore[arg-type]
        (FjordsConfig(players=2, runes=("thor",)), "fjords.config.rune_unknown"),  # type: ignore[arg-type]
    ],
)
def test_options_outside_the_rules_are_refused_clearly(config: FjordsConfig, code: str) -> None:
    with pytest.raises(IllegalCommand) as caught:
        GAME.setup(config, Chance(SEED))
    assert caught.value.code == code
