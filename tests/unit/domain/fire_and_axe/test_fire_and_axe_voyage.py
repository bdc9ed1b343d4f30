"""Actions (Load, Draw a Rune, Sail), the weather and the Losses chart, wintering."""

from __future__ import annotations

import pytest
from fire_and_axe_helpers import kinds, new_table

from contracts.games.fire_and_axe import (
    WINTERING,
    ChooseLoss,
    DeclareTurnOver,
    DrawRune,
    ItemLost,
    LeaveWintering,
    Load,
    RuneDeckReshuffled,
    Sail,
    Sailed,
    Winter,
)
from domain.games.fire_and_axe.state import free_slots


def test_loading_in_the_first_era_fills_five_slots_with_a_day_each() -> None:
    # Given Red in the Wintering Zone at the start of the game
    table = new_table()
    # When Red loads 2 crew and 3 goods (2 Fish and 1 Tusk)
    for item in ("crew", "crew", "fish", "fish", "tusks"):
        table.play(Load(item=item))
    # Then five Days of Preparation are spent and the other two slots are closed
    assert table.turn.preparation == 5
    assert table.player().crew == 2 and table.player().goods == ["fish", "fish", "tusks"]
    assert table.refuse(Load(item="crew")).code == "fire_and_axe.load.no_slot"
    # And the move to a Homeland costs no Day
    table.play(LeaveWintering(homeland="Sweden"))
    assert table.player().location == "Sweden" and table.turn.preparation == 5


@pytest.mark.parametrize(("era", "slots"), [(1, 5), (2, 6), (3, 7)])
def test_cargo_slots_grow_with_the_eras(era: int, slots: int) -> None:
    table = new_table()
    table.state.era = era
    for _ in range(slots):
        table.play(Load(item="crew"))
    assert free_slots(table.state, table.seat) == 0 and table.player().crew == slots
    table.days()  # with Days to spare, no slot is left
    assert table.refuse(Load(item="crew")).code == "fire_and_axe.load.no_slot"


def test_a_good_is_loaded_only_while_a_crewmember_still_fits() -> None:
    # Given an empty longship with one Day left: only a crewmember may come aboard
    table = new_table().days(preparation=6)
    assert table.refuse(Load(item="fish")).code == "fire_and_axe.load.crew_first"
    table.play(Load(item="crew"))
    # And with four goods aboard and one slot left, the same
    table = new_table()
    for good in ("fish", "fish", "furs", "tusks"):
        table.play(Load(item=good))
    assert table.refuse(Load(item="furs")).code == "fire_and_axe.load.crew_first"
    table.play(Load(item="crew"))
    table.play(LeaveWintering(homeland="Denmark"))


def test_loading_needs_the_wintering_zone_and_leaving_needs_crew() -> None:
    table = new_table()
    assert table.refuse(LeaveWintering(homeland="Norway")).code == "fire_and_axe.wintering.no_crew"
    assert table.refuse(DeclareTurnOver()).code == "fire_and_axe.wintering.not_on_the_map"
    table.ship("Norway", crew=2)
    assert table.refuse(Load(item="crew")).code == "fire_and_axe.load.not_wintering"


def test_goods_run_out() -> None:
    table = new_table()
    table.state.supply["furs"] = 0
    table.play(Load(item="crew"))
    assert table.refuse(Load(item="furs")).code == "fire_and_axe.load.no_goods"


def test_draw_a_rune_in_a_homeland_up_to_three() -> None:
    table = new_table().ship("Sweden", crew=2).days(preparation=4)
    table.runes("fair_wind")
    table.play(DrawRune())
    assert len(table.player().runes) == 2 and table.turn.preparation == 5
    table.play(DrawRune())
    assert table.refuse(DrawRune()).code == "fire_and_axe.rune.hand_full"


def test_draw_a_rune_only_in_a_homeland_with_a_day_left() -> None:
    table = new_table().ship("Skagerrak", crew=2)
    assert table.refuse(DrawRune()).code == "fire_and_axe.rune.not_in_homeland"
    table.ship("Denmark", crew=2).days(preparation=4, sailing=3)
    assert table.refuse(DrawRune()).code == "fire_and_axe.days.spent"


def test_an_empty_rune_deck_is_rebuilt_from_the_discards() -> None:
    table = new_table().ship("Norway", crew=2).runes()
    table.state.rune_discards = [*table.state.rune_deck]
    table.state.rune_deck = []
    events = table.play(DrawRune())
    assert kinds(events)[:2] == ["RuneDeckReshuffled", "RuneDrawn"]
    assert isinstance(events[0], RuneDeckReshuffled)
    assert sorted(events[0].order) == sorted(table.state.rune_deck + table.player().runes)
    assert table.state.rune_discards == []


def test_sailing_moves_to_adjacent_spaces_one_day_each() -> None:
    table = new_table().ship("Sweden", crew=2)
    table.play(Sail(to="Oresund"))
    assert table.player().location == "Oresund" and table.turn.sailing == 1
    assert table.refuse(Sail(to="Gotland")).code == "fire_and_axe.sail.not_adjacent"
    table.play(Sail(to="Central Baltic"))
    table.days(preparation=5, sailing=2)
    assert table.refuse(Sail(to="Gotland")).code == "fire_and_axe.days.spent"


def test_a_port_holds_one_longship_but_water_and_homelands_any() -> None:
    table = new_table()
    table.ship("Seville", crew=2, seat=1).ship("Strait of Gibraltar", crew=2, seat=2)
    table.ship("Strait of Gibraltar", crew=2)
    assert table.refuse(Sail(to="Seville")).code == "fire_and_axe.sail.port_taken"
    table.play(Sail(to="Alboran Sea"))
    table.ship("Oresund", crew=1, seat=1)
    table.ship("Oresund", crew=1)
    table.play(Sail(to="Sweden"))


def test_the_northern_weather_example_covers_a_skull_at_excess_1_and_3() -> None:
    # Given Blue in Norway (North: 2 Clear Weather Days) with crew and goods
    table = new_table().ship("Norway", crew=3, goods=["furs", "fish"])
    route = ["Norwegian Coast", "Lofoten Sea", "North Cape", "White Sea", "Bjarmaland"]
    # When she sails twice: no loss
    for day, to in enumerate(route[:2], start=1):
        assert table.play(Sail(to=to)) == [
            Sailed(seat=table.seat, to=to, excess=day - 2, skulls=())
        ]
    # And a third time: excess 1 covers the first skull; she chooses Furs
    events = table.play(Sail(to=route[2]))
    assert events == [Sailed(seat=table.seat, to=route[2], excess=1, skulls=(0,))]
    assert table.refuse(Sail(to=route[3])).code == "fire_and_axe.pending.losses"
    table.play(ChooseLoss(item="furs"))
    assert table.player().goods == ["fish"] and table.state.supply["furs"] == 11
    # And a fourth: excess 2, the skull is already covered
    assert table.play(Sail(to=route[3]))[0] == Sailed(
        seat=table.seat, to=route[3], excess=2, skulls=()
    )
    # And into Bjarmaland: excess 3 covers the next skull
    assert table.play(Sail(to=route[4]))[0] == Sailed(
        seat=table.seat, to=route[4], excess=3, skulls=(1,)
    )
    assert table.turn.pending is not None and table.turn.pending.losses == 1


def test_the_western_weather_example_covers_two_skulls_at_excess_4() -> None:
    # Given the dial turned so the West has 6 and the North 3, Yellow at Caithness on Day 6
    table = new_table().ship("North Sea", crew=3, goods=["tusks", "fish"])
    table.state.blue = "W"
    table.days(sailing=6)
    # When he sails into the North on Day 7
    events = table.play(Sail(to="Norwegian Sea"))
    # Then the excess of 4 covers the second skull and the empty one left of it
    assert events == [Sailed(seat=table.seat, to="Norwegian Sea", excess=4, skulls=(0, 1))]
    table.play(ChooseLoss(item="tusks"))
    events = table.play(ChooseLoss(item="crew"))
    assert table.player().crew == 2 and table.player().goods == ["fish"]
    assert table.turn.pending is None


def test_excess_5_covers_the_third_skull_and_those_left_of_it() -> None:
    table = new_table().ship("North Sea", crew=4)
    table.state.blue = "S"  # North 2
    table.days(sailing=6)
    events = table.play(Sail(to="Norwegian Sea"))
    # Then three skulls: all crew alike, so the losses are taken without asking
    assert events[0] == Sailed(seat=table.seat, to="Norwegian Sea", excess=5, skulls=(0, 1, 2))
    assert [e.item for e in events if isinstance(e, ItemLost)] == ["crew"] * 3
    assert table.player().crew == 1 and table.turn.pending is None


def test_losing_the_last_crewmember_wrecks_the_ship_and_ends_the_turn() -> None:
    table = new_table().ship("North Sea", crew=1, goods=["fish"])
    seat = table.seat
    table.days(sailing=6)
    events = table.play(Sail(to="Norwegian Sea"))
    assert kinds(events)[:5] == ["Sailed", "ItemLost", "ItemLost", "Wrecked", "TurnPassed"]
    assert table.player(seat).location == WINTERING and table.player(seat).crew == 0
    assert table.player(seat).goods == [] and table.state.supply["fish"] == 10
    assert table.seat != seat


def test_wintering_keeps_one_crewmember_and_ends_the_turn() -> None:
    table = new_table().ship("Rome", crew=3, goods=["tusks"])
    seat = table.seat
    events = table.play(Winter())
    assert kinds(events)[:3] == ["Wintered", "TurnPassed", "TurnBegan"]
    assert table.player(seat).location == WINTERING and table.player(seat).crew == 1
    assert table.player(seat).goods == []


def test_a_turn_ends_after_seven_days_only_when_declared() -> None:
    table = new_table().ship("Arles", crew=2).days(preparation=3, sailing=4)
    seat = table.seat
    assert not any(isinstance(c, Sail) for c in table.legal())
    table.play(DeclareTurnOver())
    assert table.seat == (seat + 1) % 3
    assert (table.turn.preparation, table.turn.sailing) == (0, 0)
