"""Tasks: Trade, Raid and Settle, one per port per turn, with the rule book's examples."""

from __future__ import annotations

from fire_and_axe_helpers import kinds, new_table

from contracts.games.fire_and_axe import (
    WINTERING,
    ConfirmSettlement,
    Raid,
    RaidAgain,
    Settle,
    StopRaid,
    TakeTreasure,
    Trade,
    Traded,
    TreasureCollected,
)


def test_trading_pays_the_port_value() -> None:
    # Given Red in Reykjanes with Furs and Fish, and Fish already in Horn (same region)
    table = new_table().ship("Reykjanes", crew=2, goods=["furs", "fish"])
    table.state.port_goods["Horn"] = "fish"
    # Then Fish may not go to Reykjanes, but Furs pays 3 VP
    assert table.refuse(Trade(good="fish")).code == "fire_and_axe.trade.region_has_good"
    events = table.play(Trade(good="furs"))
    assert events[0] == Traded(seat=table.seat, port="Reykjanes", good="furs", points=3)
    assert table.state.port_goods["Reykjanes"] == "furs"
    assert table.player().points["trade"] == 3
    # And one Task per port per turn
    assert table.refuse(Trade(good="fish")).code == "fire_and_axe.task.port_tried"


def test_a_good_in_demand_pays_two_more() -> None:
    # Given Blue in Constantinople with Tusks, and Tusks in demand
    table = new_table().ship("Constantinople", crew=1, goods=["tusks"])
    table.state.demand = "tusks"
    events = table.play(Trade(good="tusks"))
    assert events[0] == Traded(seat=table.seat, port="Constantinople", good="tusks", points=7)


def test_a_port_holds_one_good_and_tasks_need_a_port() -> None:
    table = new_table().ship("Arles", crew=1, goods=["fish"])
    table.state.port_goods["Arles"] = "furs"
    assert table.refuse(Trade(good="fish")).code == "fire_and_axe.trade.port_has_good"
    assert table.refuse(Trade(good="tusks")).code == "fire_and_axe.trade.not_aboard"
    table.ship("Gulf of Lion", crew=1, goods=["fish"])
    assert table.refuse(Trade(good="fish")).code == "fire_and_axe.task.not_in_port"
    table.ship("Norway", crew=1, goods=["fish"])
    assert table.refuse(Trade(good="fish")).code == "fire_and_axe.task.not_in_port"


def test_independent_ports_ignore_what_other_ports_hold() -> None:
    table = new_table().ship("Arles", crew=1, goods=["fish"])
    table.state.port_goods["Balearics"] = "fish"
    table.play(Trade(good="fish"))


def test_raiding_example_bayeux() -> None:
    # Given Yellow in Bayeux (value 4) with four crew, its town hiding 5
    table = new_table(conflict_runes=False).ship("Bayeux", crew=4)
    table.state.towns["Bayeux"] = ("small", 5)
    # When the first roll is a 4: not above the value, a crewmember is lost
    table.play(Raid(), 4)
    assert table.player().crew == 3
    assert table.turn.pending is not None and table.turn.pending.kind == "raid_again"
    # And the second is a 5: success, the town and 5 VP
    events = table.play(RaidAgain(), 5)
    assert kinds(events) == ["RaidRolled", "TownTaken", "TreasureCollected"]
    assert "Bayeux" not in table.state.towns
    assert table.player().towns == [("Bayeux", "small", 5)]
    assert table.player().points["treasure"] == 5
    assert table.turn.pending is None


def test_raiding_example_rome_with_a_good_ends_in_the_wintering_zone() -> None:
    # Given Red in Rome (5, but a good in port makes it 4) with two crew and a good
    table = new_table().ship("Rome", crew=2, goods=["furs"])
    table.state.port_goods["Rome"] = "fish"
    seat = table.seat
    table.play(Raid(), 1)
    events = table.play(RaidAgain(), 4)
    # Then the last crewmember is gone: goods discarded, Wintering Zone, turn over
    assert kinds(events)[:3] == ["RaidRolled", "Wrecked", "TurnPassed"]
    assert table.player(seat).location == WINTERING and table.player(seat).goods == []
    assert "Rome" in table.state.towns


def test_a_raid_may_stop_and_has_at_most_three_rolls() -> None:
    table = new_table().ship("Lindisfarne", crew=5)
    table.play(Raid(), 1)
    table.play(StopRaid())
    assert table.turn.pending is None and table.player().crew == 4
    assert table.refuse(Raid()).code == "fire_and_axe.task.port_tried"
    table.ship("York", crew=5)
    table.play(Raid(), 1)
    table.play(RaidAgain(), 2)
    events = table.play(RaidAgain(), 3)
    assert kinds(events) == ["RaidRolled", "RaidEnded"]
    assert table.player().crew == 2 and table.turn.pending is None
    assert table.refuse(RaidAgain()).code == "fire_and_axe.raid.not_raiding"


def test_a_raid_needs_a_town() -> None:
    table = new_table().ship("Arles", crew=2)
    assert table.refuse(Raid()).code == "fire_and_axe.raid.no_town"


def test_with_conflict_runes_the_treasure_waits_for_a_take() -> None:
    table = new_table(conflict_runes=True).ship("York", crew=2)
    table.state.towns["York"] = ("small", 6)
    events = table.play(Raid(), 6)
    assert kinds(events) == ["RaidRolled", "TownTaken"]
    assert table.refuse(Trade(good="fish")).code == "fire_and_axe.pending.treasure"
    events = table.play(TakeTreasure())
    assert events == [TreasureCollected(seat=table.seat, port="York", points=6)]


def test_settling_example_kiev() -> None:
    # Given Blue in Kiev while Lubech (same region) has a town
    table = new_table().ship("Kiev", crew=4)
    assert table.refuse(Settle(dice=3)).code == "fire_and_axe.settle.region_town"
    # When Lubech's town is gone and Kiev holds a good (value 4 -> 3)
    del table.state.towns["Lubech"]
    table.state.port_goods["Kiev"] = "fish"
    events = table.play(Settle(dice=3), 2, 4, 6)
    # Then the 2 costs a crewmember, and a second one becomes the Settlement
    assert kinds(events) == ["SettleRolled", "SettlementMade"]
    assert table.player().crew == 2 and table.state.settlements["Kiev"] == table.seat
    assert table.refuse(Settle(dice=1)).code == "fire_and_axe.task.port_tried"


def test_settling_fails_with_no_die_above_the_value() -> None:
    table = new_table().ship("Arles", crew=3)
    table.play(Settle(dice=2), 3, 1)
    assert table.player().crew == 1 and "Arles" not in table.state.settlements


def test_settling_refusals() -> None:
    table = new_table().ship("Bayeux", crew=2)
    assert table.refuse(Settle(dice=1)).code == "fire_and_axe.settle.town"
    table.ship("Arles", crew=2)
    assert table.refuse(Settle(dice=3)).code == "fire_and_axe.settle.dice"
    table.state.settlements["Arles"] = 1
    assert table.refuse(Settle(dice=1)).code == "fire_and_axe.settle.settled"


def test_the_last_crewmember_may_settle_or_stay_aboard() -> None:
    # Given a success that leaves one crewmember aboard
    table = new_table().ship("Caithness", crew=2, goods=["fish"])
    table.play(Settle(dice=2), 1, 6)
    assert table.turn.pending is not None and table.turn.pending.kind == "confirm_settlement"
    # When the player keeps it aboard
    table.play(ConfirmSettlement(settle=False))
    assert "Caithness" not in table.state.settlements and table.player().crew == 1
    # Or, another time, settles it: the ship goes to winter and the turn ends
    table = new_table().ship("Caithness", crew=2, goods=["fish"])
    seat = table.seat
    table.play(Settle(dice=2), 1, 6)
    events = table.play(ConfirmSettlement(settle=True))
    assert kinds(events)[:3] == ["SettlementMade", "Wrecked", "TurnPassed"]
    assert table.state.settlements["Caithness"] == seat
    assert table.player(seat).location == WINTERING and table.player(seat).goods == []
