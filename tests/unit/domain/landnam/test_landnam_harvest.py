"""Phase 1 without a 7: harvest, famine, aging and Harvest cards (decisions 4 and 10)."""

from __future__ import annotations

from landnam_helpers import draw_index_giving, hand_of, table, vertex_of

from contracts.games.landnam import ChooseAging, Famine, PlayFate, Proceed, RollDice


def roll_to(t, total: int) -> None:  # type: ignore[no-untyped-def]
    t.state.draws = draw_index_giving(t, total, 6, count=2, start=t.state.draws)


def test_a_settler_takes_two_cards_and_its_hex_ages_from_6_to_8() -> None:
    # Given a field numbered 6 with seat 1's settler on it
    t = table()
    t.land((1, 0), "field", 6)
    t.unit(1, "settler", (1, 0))
    roll_to(t, 6)
    # When seat 0 rolls a 6
    t.play(0, RollDice())
    # Then the settler's owner takes 2 grain, the only producing hex ages 6 -> 8, phase 2
    assert hand_of(t, 1)["grain"] == 2
    assert t.state.numbers[(1, 0)] == 8
    assert t.state.turn.phase == "move"


def test_houses_take_one_card_a_town_two_and_the_active_player_picks_the_hex_to_age() -> None:
    # Given two pastures numbered 12, one with a farm of seat 2, one with a town of seat 0
    t = table()
    t.land((1, 0), "pasture", 12)
    t.land((-1, 0), "pasture", 12)
    t.house(2, vertex_of((1, 0), 0))
    t.house(0, vertex_of((-1, 0), 3), level=2)
    roll_to(t, 12)
    # When seat 0 rolls 12
    t.play(0, RollDice())
    # Then the farm pays 1 wool and the town 2, and the aging waits for a choice
    assert hand_of(t, 2)["wool"] == 1 and hand_of(t, 0)["wool"] == 2
    assert t.state.turn.phase == "aging"
    assert set(t.legal(0)) == {ChooseAging(hex=(-1, 0)), ChooseAging(hex=(1, 0))}
    # And aging 12 wraps around to 2
    t.play(0, ChooseAging(hex=(1, 0)))
    assert t.state.numbers[(1, 0)] == 2
    assert t.state.numbers[(-1, 0)] == 12


def test_aging_skips_values_out_of_stock() -> None:
    # Given a bog numbered 6, and no 8 token left
    t = table()
    t.land((1, 0), "bog", 6)
    t.unit(1, "settler", (1, 0))
    t.state.number_stock[8] = 0
    roll_to(t, 6)
    # When it produces
    t.play(0, RollDice())
    # Then it ages to 9, the next value in stock
    assert t.state.numbers[(1, 0)] == 9


def test_famine_pays_nobody_and_returns_every_card_of_the_short_type() -> None:
    # Given a forest numbered 5 with a settler, and only one timber in the stock
    t = table()
    t.land((1, 0), "forest", 5)
    t.unit(1, "settler", (1, 0))
    t.hand(0, timber=11, wool=1)
    t.hand(2, timber=12)
    assert t.state.stock["timber"] == 1
    roll_to(t, 5)
    # When a 5 is rolled
    events = t.play(0, RollDice())
    # Then famine: nobody is paid, every timber returns, nothing ages
    assert any(isinstance(e, Famine) and e.short == ("timber",) for e in events)
    assert hand_of(t, 0) == {"iron": 0, "grain": 0, "timber": 0, "wool": 1}
    assert hand_of(t, 1)["timber"] == 0 and hand_of(t, 2)["timber"] == 0
    assert t.state.stock["timber"] == 24
    assert t.state.numbers[(1, 0)] == 5


def test_a_harvest_card_is_offered_to_a_holder_and_good_year_adds_one_per_payment() -> None:
    # Given seat 0 holds Good year, and a field numbered 4 with a settler
    t = table()
    t.land((1, 0), "field", 4)
    t.unit(1, "settler", (1, 0))
    t.state.players[0].fate = ["good_year"]
    t.state.deck.remove("good_year")
    roll_to(t, 4)
    t.play(0, RollDice())
    assert t.state.turn.phase == "harvest_card"
    assert PlayFate(card="good_year") in t.legal(0) and Proceed() in t.legal(0)
    # When Good year is played
    t.play(0, PlayFate(card="good_year"))
    # Then the settler's payment is 3
    assert hand_of(t, 1)["grain"] == 3
    assert t.state.discards == ["good_year"]


def test_shift_moves_the_result_but_never_to_7() -> None:
    # Given seat 0 holds Shift after rolling a 6
    t = table()
    t.land((1, 0), "field", 5)
    t.unit(1, "settler", (1, 0))
    t.state.players[0].fate = ["shift"]
    roll_to(t, 6)
    t.play(0, RollDice())
    # Then +1 (to 7) is refused and -1 (to 5) makes the field produce
    assert t.refuse(0, PlayFate(card="shift", shift=1)) == "landnam.fate.shift_range"
    t.play(0, PlayFate(card="shift", shift=-1))
    assert hand_of(t, 1)["grain"] == 2


def test_fallow_keeps_the_numbers() -> None:
    t = table()
    t.land((1, 0), "field", 3)
    t.unit(1, "settler", (1, 0))
    t.state.players[0].fate = ["fallow"]
    roll_to(t, 3)
    t.play(0, RollDice())
    t.play(0, PlayFate(card="fallow"))
    assert hand_of(t, 1)["grain"] == 2 and t.state.numbers[(1, 0)] == 3
