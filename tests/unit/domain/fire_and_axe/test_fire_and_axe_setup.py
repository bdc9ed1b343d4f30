"""Setup: towns on the starred ports, the Saga deck by Era, Fish in demand, the Rune deck, one
secret Rune each, the starting bonus VP by seat."""

from __future__ import annotations

from collections import Counter

import pytest
from fire_and_axe_helpers import SEED, new_table

from contracts.games.fire_and_axe import WINTERING, FireAndAxeConfig, TableSetUp
from domain.chance import Chance
from domain.errors import IllegalCommand
from domain.games.fire_and_axe import GAME
from domain.games.fire_and_axe.data import DATA, rune_deck_cards


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_table_is_set_as_the_rule_book_says(players: int) -> None:
    state = new_table(players).state

    assert sorted(state.towns) == sorted(p for p, port in DATA.ports.items() if port.town)
    for size in ("small", "large"):
        treasures = [t for s, t in state.towns.values() if s == size]
        assert sorted(treasures) == sorted(DATA.treasures[size])
    assert [DATA.sagas[s].era for s in state.saga_spaces if s is not None] == [1, 1, 1]
    eras = [DATA.sagas[s].era for s in state.saga_deck]
    assert eras == [1] * 3 + [2] * 6 + [3] * 6
    assert state.demand == "fish" and state.supply == {"fish": 10, "tusks": 11, "furs": 11}
    assert state.blue == "S" and state.era == 1
    assert all(p.location == WINTERING and p.crew == 0 and len(p.runes) == 1 for p in state.players)
    assert len(state.rune_deck) == 33 - players
    order = [(state.first_seat + step) % players for step in range(players)]
    assert [state.players[seat].points["starting_bonus"] for seat in order] == list(
        range(1, players + 1)
    )
    assert state.turn is not None and state.turn.seat == state.first_seat


def test_without_conflict_runes_the_deck_has_the_other_twenty_four() -> None:
    state = new_table(4, conflict_runes=False).state

    held = [rune for player in state.players for rune in player.runes]
    assert Counter(state.rune_deck + held) == Counter(rune_deck_cards(False))
    assert not {"plunder", "fortune_of_war", "desertion"} & set(state.rune_deck + held)


def test_setup_is_a_function_of_the_seed() -> None:
    config = FireAndAxeConfig(players=4)
    assert GAME.setup(config, Chance(SEED)) == GAME.setup(config, Chance(SEED))
    assert GAME.setup(config, Chance(SEED)) != GAME.setup(config, Chance(b"other seed"))


def test_the_setup_event_hides_treasures_and_decks_from_everyone() -> None:
    (setup, *_) = GAME.setup(FireAndAxeConfig(players=3), Chance(SEED))
    assert isinstance(setup, TableSetUp)

    for viewer in (None, 0, 1, 2):
        shown = GAME.visible_event(setup, viewer)
        assert isinstance(shown, TableSetUp)
        assert shown.saga_deck == () and shown.rune_deck == ()
        assert {town.treasure for town in shown.towns} == {0}
        assert [town.port for town in shown.towns] == [town.port for town in setup.towns]


@pytest.mark.parametrize("players", [2, 6])
def test_player_counts_outside_three_to_five_are_refused(players: int) -> None:
    with pytest.raises(IllegalCommand) as refused:
        GAME.setup(FireAndAxeConfig(players=players), Chance(SEED))
    assert refused.value.code == "fire_and_axe.config.players"
