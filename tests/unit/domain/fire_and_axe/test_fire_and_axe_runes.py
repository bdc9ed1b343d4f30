"""Runes: playing and discarding, turning the Wind Dial, and each effect in its window."""

from __future__ import annotations

import pytest
from fire_and_axe_helpers import kinds, new_table

from contracts.games.fire_and_axe import (
    WINTERING,
    DialTurned,
    DiscardRune,
    PlayRune,
    Raid,
    RaidAgain,
    Sail,
    Settle,
    TakeTreasure,
    TreasureCollected,
)
from domain.games.fire_and_axe import GAME
from domain.games.fire_and_axe.data import clear_days


def test_playing_a_rune_may_first_turn_the_dial_a_quarter_turn() -> None:
    # Given the dial at its start (blue South) and a Rune in hand at sea
    table = new_table().ship("Skagerrak", crew=2).runes("fair_wind", "recruits").days(sailing=3)
    # When it is played with a clockwise turn
    events = table.play(PlayRune(rune="fair_wind", dial=1))
    # Then blue moves to the West (6) and red from the North to the East
    assert kinds(events) == ["RunePlayed", "DialTurned", "SailingReduced"]
    assert events[1] == DialTurned(seat=table.seat, blue="W")
    assert clear_days(table.state.blue, "W") == 6 and clear_days(table.state.blue, "E") == 3
    assert table.state.rune_discards == ["fair_wind"]
    # And a discard may turn it back, with no effect
    events = table.play(DiscardRune(rune="recruits", dial=-1))
    assert kinds(events) == ["RunePlayed", "DialTurned"] and table.state.blue == "S"


def test_runes_are_not_played_or_discarded_in_a_homeland_or_without_the_card() -> None:
    table = new_table().ship("Denmark", crew=2).runes("recruits")
    assert table.refuse(DiscardRune(rune="recruits")).code == "fire_and_axe.rune.in_homeland"
    table.ship("Skagerrak", crew=2)
    assert table.refuse(PlayRune(rune="fair_wind")).code == "fire_and_axe.rune.not_in_hand"


def test_change_in_demand() -> None:
    table = new_table().ship("Skagerrak", crew=2).runes("change_in_demand")
    assert table.refuse(PlayRune(rune="change_in_demand")).code == "fire_and_axe.rune.good_shape"
    refused = table.refuse(PlayRune(rune="change_in_demand", good="fish"))
    assert refused.code == "fire_and_axe.rune.same_demand"
    table.play(PlayRune(rune="change_in_demand", good="tusks"))
    assert table.state.demand == "tusks"
    assert table.state.supply == {"fish": 11, "tusks": 10, "furs": 11}


def test_change_in_demand_needs_the_good_in_the_stockpile() -> None:
    table = new_table().ship("Skagerrak", crew=2).runes("change_in_demand")
    table.state.supply["furs"] = 0
    refused = table.refuse(PlayRune(rune="change_in_demand", good="furs"))
    assert refused.code == "fire_and_axe.rune.no_goods"


@pytest.mark.parametrize(("sailing", "after"), [(5, 3), (1, 0)])
def test_fair_wind_moves_the_sailing_slider_back_two(sailing: int, after: int) -> None:
    table = new_table().ship("Skagerrak", crew=2).runes("fair_wind").days(2, sailing)
    table.turn.skulls = {0}
    table.play(PlayRune(rune="fair_wind"))
    assert table.turn.sailing == after and table.turn.skulls == {0}


def test_fair_wind_needs_days_sailed() -> None:
    table = new_table().ship("Skagerrak", crew=2).runes("fair_wind")
    assert table.refuse(PlayRune(rune="fair_wind")).code == "fire_and_axe.rune.no_sailing"


def test_recruits_bring_up_to_two_crew_into_open_slots() -> None:
    table = new_table().ship("Skagerrak", crew=1, goods=["fish", "fish"]).runes("recruits")
    table.play(PlayRune(rune="recruits"))
    assert table.player().crew == 3
    table.ship("Skagerrak", crew=4, goods=["fish"]).runes("recruits")
    assert table.refuse(PlayRune(rune="recruits")).code == "fire_and_axe.rune.no_room"


def test_recruits_with_no_crewmember_in_supply_would_change_nothing_and_are_refused() -> None:
    table = new_table().ship("Skagerrak", crew=2).runes("recruits")
    for index in range(13):  # the other 13 of the seat's 15 crewmembers are settled
        table.state.settlements[f"port-{index}"] = table.seat
    assert table.refuse(PlayRune(rune="recruits")).code == "fire_and_axe.rune.no_room"
    # And discarding it still turns the dial
    assert DiscardRune(rune="recruits", dial=1) in table.legal()


def test_unrest_overthrows_a_rival_settlement() -> None:
    table = new_table().ship("Arles", crew=2).runes("unrest")
    rival = (table.seat + 1) % 3
    table.state.settlements["Arles"] = rival
    table.play(PlayRune(rune="unrest"))
    assert table.state.settlements["Arles"] == table.seat and table.player().crew == 1


def test_unrest_needs_a_rival_settlement_and_a_spare_crewmember() -> None:
    table = new_table().ship("Arles", crew=2).runes("unrest")
    assert table.refuse(PlayRune(rune="unrest")).code == "fire_and_axe.rune.window"
    table.state.settlements["Arles"] = table.seat
    assert table.refuse(PlayRune(rune="unrest")).code == "fire_and_axe.rune.window"


def test_unrest_with_the_last_crewmember_settles_it_and_wrecks_the_ship() -> None:
    # Given a longship in Arles with one crewmember and a good, a rival's Settlement there
    table = new_table().ship("Arles", crew=1, goods=["furs"]).runes("unrest")
    seat, rival = table.seat, (table.seat + 1) % 3
    table.state.settlements["Arles"] = rival
    assert PlayRune(rune="unrest") in table.legal()
    # When Unrest is played
    events = table.play(PlayRune(rune="unrest"))
    # Then the crewmember settles, and the crewless ship is wrecked: goods back, turn over
    assert kinds(events)[:4] == ["RunePlayed", "SettlementOverthrown", "Wrecked", "TurnPassed"]
    assert table.state.settlements["Arles"] == seat
    assert table.player(seat).location == WINTERING and table.player(seat).crew == 0
    assert table.player(seat).goods == [] and table.state.supply["furs"] == 11
    assert table.seat != seat


def test_war_cry_adds_one_to_every_die_of_the_attack() -> None:
    # Given Bayeux (4) and War Cry played before the first roll
    table = new_table(conflict_runes=False).ship("Bayeux", crew=3).runes("war_cry")
    table.play(PlayRune(rune="war_cry"))
    # When the roll is a 4: with +1 it beats the value
    events = table.play(Raid(), 4)
    assert kinds(events) == ["RaidRolled", "TownTaken", "TreasureCollected"]


def test_two_war_crys_add_two_to_every_die_of_the_attack() -> None:
    # Given Bayeux (4) and two War Crys played before the first roll
    table = new_table(conflict_runes=False).ship("Bayeux", crew=3).runes("war_cry", "war_cry")
    table.play(PlayRune(rune="war_cry"))
    table.play(PlayRune(rune="war_cry"))
    assert GAME.view(table.state, table.seat).turn.prepared == ("war_cry", "war_cry")  # type: ignore[union-attr]
    # When the roll is a 3: with +2 it beats the value
    events = table.play(Raid(), 3)
    assert kinds(events) == ["RaidRolled", "TownTaken", "TreasureCollected"]
    assert events[0].target == 2  # type: ignore[attr-defined]


def test_no_war_cry_once_every_die_of_the_attack_already_wins() -> None:
    # Given Lindisfarne (2) with a good in it (1): one War Cry makes every roll win
    table = new_table().ship("Lindisfarne", crew=2).runes("war_cry", "war_cry")
    table.state.port_goods["Lindisfarne"] = "fish"
    table.play(PlayRune(rune="war_cry"))
    # Then a second one would change nothing
    assert table.refuse(PlayRune(rune="war_cry")).code == "fire_and_axe.rune.no_effect"


def test_a_second_shield_wall_for_one_attack_changes_nothing_and_is_refused() -> None:
    table = new_table().ship("Lindisfarne", crew=2).runes("shield_wall", "shield_wall")
    table.play(PlayRune(rune="shield_wall"))
    refused = table.refuse(PlayRune(rune="shield_wall"))
    assert refused.code == "fire_and_axe.rune.already_prepared"


def test_war_cry_helps_settling_too_and_is_lost_by_sailing_away() -> None:
    table = new_table().ship("Arles", crew=3).runes("war_cry", "war_cry")
    table.play(PlayRune(rune="war_cry"))
    table.play(Settle(dice=1), 3)  # 3 + 1 beats Arles's 3
    assert table.state.settlements["Arles"] == table.seat
    assert table.refuse(PlayRune(rune="war_cry")).code == "fire_and_axe.rune.window"
    table.ship("Balearics", crew=3)
    table.play(PlayRune(rune="war_cry"))
    table.play(Sail(to="Gulf of Lion"))
    assert table.turn.prepared == []


def test_shield_wall_saves_the_crew_of_failed_dice() -> None:
    table = new_table().ship("Lindisfarne", crew=1).runes("shield_wall")
    table.play(PlayRune(rune="shield_wall"))
    table.play(Raid(), 1)
    assert table.player().crew == 1
    table.play(RaidAgain(), 2)
    assert table.player().crew == 1


def test_war_cry_needs_a_port_where_an_attack_is_possible() -> None:
    table = new_table().ship("Skagerrak", crew=2).runes("war_cry")
    assert table.refuse(PlayRune(rune="war_cry")).code == "fire_and_axe.rune.window"
    table.ship("Kiev", crew=2)  # Lubech's town forbids settling; Kiev has no town
    assert table.refuse(PlayRune(rune="war_cry")).code == "fire_and_axe.rune.window"


def test_plunder_takes_a_good_from_a_rival_longship_in_a_port() -> None:
    table = new_table().ship("Skagerrak", crew=2).runes("plunder")
    rival = (table.seat + 1) % 3
    table.ship("Arles", crew=1, goods=["furs"], seat=rival)
    table.play(PlayRune(rune="plunder", target=rival, good="furs"))
    assert table.player(rival).goods == [] and table.state.supply["furs"] == 11


def test_plunder_refusals() -> None:
    table = new_table().ship("Skagerrak", crew=2, goods=["fish"]).runes("plunder")
    rival = (table.seat + 1) % 3
    table.ship("Gulf of Lion", crew=1, goods=["furs"], seat=rival)
    refused = table.refuse(PlayRune(rune="plunder", target=rival, good="furs"))
    assert refused.code == "fire_and_axe.rune.target_not_in_port"
    table.ship("Arles", crew=1, goods=["furs"], seat=rival)
    refused = table.refuse(PlayRune(rune="plunder", target=rival, good="fish"))
    assert refused.code == "fire_and_axe.rune.target_has_no_good"
    refused = table.refuse(PlayRune(rune="plunder", target=table.seat, good="fish"))
    assert refused.code == "fire_and_axe.rune.target_self"
    assert table.refuse(PlayRune(rune="plunder")).code == "fire_and_axe.rune.target_shape"


def test_fortune_of_war_doubles_the_treasure_just_raided() -> None:
    table = new_table().ship("York", crew=2).runes("fortune_of_war")
    table.state.towns["York"] = ("small", 6)
    refused = table.refuse(PlayRune(rune="fortune_of_war"))
    assert refused.code == "fire_and_axe.rune.window"
    table.play(Raid(), 6)
    events = table.play(PlayRune(rune="fortune_of_war"))
    assert events[-1] == TreasureCollected(seat=table.seat, port="York", points=12)
    assert table.turn.pending is None
    assert table.refuse(TakeTreasure()).code == "fire_and_axe.raid.no_treasure"


def test_desertion_sends_a_rival_crewmember_home_but_never_the_last() -> None:
    table = new_table().ship("Skagerrak", crew=2).runes("desertion", "desertion")
    rival = (table.seat + 1) % 3
    table.ship("Arles", crew=2, seat=rival)
    table.play(PlayRune(rune="desertion", target=rival))
    assert table.player(rival).crew == 1
    refused = table.refuse(PlayRune(rune="desertion", target=rival))
    assert refused.code == "fire_and_axe.rune.target_last_crew"


def test_no_rune_while_a_choice_is_pending() -> None:
    table = new_table().ship("North Sea", crew=4, goods=["fish"]).runes("recruits")
    table.days(sailing=6)
    table.play(Sail(to="Norwegian Sea"))
    assert table.refuse(PlayRune(rune="recruits")).code == "fire_and_axe.pending.losses"
    assert table.refuse(DiscardRune(rune="recruits")).code == "fire_and_axe.pending.losses"
