"""Phase 3: trading with the stock and between players, building and its limits, the end of
the turn and the end of the game (decisions 11 to 15, 21, 24, 25)."""

from __future__ import annotations

from landnam_helpers import Table, hand_of, table, vertex_of

from contracts.games.landnam import (
    AcceptTrade,
    AgeNumber,
    BuildFarm,
    BuildHarbour,
    BuildSettler,
    BuildShip,
    BuildTown,
    DeclineTrade,
    OfferTrade,
    PassDice,
    TradeWithStock,
    WithdrawOffer,
)
from domain.games.landnam import GAME

FIELD = (1, 0)


def test_four_identical_cards_buy_one_and_a_harbour_makes_it_two() -> None:
    t = table()
    t.hand(0, wool=6)
    t.phase("trade")
    t.play(0, TradeWithStock(give="wool", get="iron"))
    assert hand_of(t, 0) == {"iron": 1, "grain": 0, "timber": 0, "wool": 2}
    assert t.refuse(0, TradeWithStock(give="wool", get="iron")) == "landnam.trade.short"
    # Given a wool harbour with seat 0's ship in it, 2 wool buy one
    t.land((1, 1), "sea")
    t.state.harbours[(1, 1)] = "wool"
    t.unit(0, "ship", (1, 1))
    t.play(0, TradeWithStock(give="wool", get="grain"))
    assert hand_of(t, 0)["wool"] == 0 and hand_of(t, 0)["grain"] == 1


def test_a_house_uses_a_harbour_only_while_no_ship_is_in_it() -> None:
    t = table()
    t.land((1, 1), "sea")
    t.state.harbours[(1, 1)] = "grain"
    t.house(0, vertex_of((1, 1), 0))
    t.hand(0, grain=2)
    t.phase("trade")
    assert TradeWithStock(give="grain", get="iron") in t.legal(0)
    t.unit(1, "ship", (1, 1))
    assert TradeWithStock(give="grain", get="iron") not in t.legal(0)


def test_an_offer_to_all_waits_for_every_target_and_the_first_acceptance_binds() -> None:
    t = table()
    t.hand(0, iron=2)
    t.hand(1, wool=1)
    t.hand(2, wool=3)
    t.phase("trade")
    t.play(0, OfferTrade(to=None, give="iron", give_count=2, get="wool", get_count=1))
    # Several seats act at once: the active player and both targets
    assert GAME.to_act(t.state) == [0, 1, 2]
    t.play(1, DeclineTrade())
    assert GAME.to_act(t.state) == [0, 2]
    t.play(2, AcceptTrade())
    assert hand_of(t, 0) == {"iron": 0, "grain": 0, "timber": 0, "wool": 1}
    assert hand_of(t, 2) == {"iron": 2, "grain": 0, "timber": 0, "wool": 2}
    assert t.state.turn.offer is None and GAME.to_act(t.state) == [0]


def test_acceptance_needs_the_cards_and_a_withdrawn_offer_cannot_be_accepted() -> None:
    t = table()
    t.hand(0, iron=1)
    t.hand(1, grain=1)
    t.phase("trade")
    t.play(0, OfferTrade(to=1, give="iron", give_count=1, get="grain", get_count=2))
    assert t.legal(1) == [DeclineTrade()]
    assert t.refuse(2, AcceptTrade()) == "turn.not_yours"
    t.play(0, WithdrawOffer())
    assert t.refuse(1, AcceptTrade()) == "turn.not_yours"


def test_offers_are_limited_per_turn() -> None:
    t = table()
    t.hand(0, iron=3)
    t.phase("trade")
    offer = OfferTrade(to=1, give="iron", give_count=1, get="grain", get_count=1)
    for _ in range(3):
        t.play(0, offer)
    assert t.refuse(0, offer) == "landnam.offer.limit"


def farmer() -> tuple[Table, int]:
    t = table()
    t.land(FIELD, "field", 4)
    t.land((1, 1), "sea")
    settler = t.unit(0, "settler", FIELD)
    t.hand(0, iron=3, grain=3, timber=3, wool=4)
    t.phase("trade")
    return t, settler


def test_a_farm_takes_effect_at_the_end_of_the_turn_and_its_builder_leaves() -> None:
    t, settler = farmer()
    vertex = vertex_of(FIELD, 2)  # (1, 0), (1, 1), (0, 1)
    t.play(0, BuildFarm(unit=settler, vertex=vertex))
    state = t.state
    assert vertex not in state.houses and settler in state.units
    # The unit has used its building action
    assert t.refuse(0, AgeNumber(unit=settler)) == "landnam.build.acted"
    # And the pending farm cannot build yet
    assert t.refuse(0, BuildTown(vertex=vertex)) == "landnam.build.no_house"
    t.play(0, PassDice())
    state = t.state
    assert state.houses[vertex] == (0, 1) and settler not in state.units
    assert state.turn.seat == 1 and state.turn.phase == "roll"


def test_farms_keep_their_distance_unless_the_shared_hexes_are_sea_or_mountain() -> None:
    t = table()
    t.land(FIELD, "field", 4)
    t.land((2, -1), "field", 5)
    t.land((1, -1), "sea")
    t.land((0, -1), "field", 6)
    settler = t.unit(0, "settler", FIELD)
    t.hand(0, grain=1, timber=1, wool=1)
    t.phase("trade")
    # Seat 1's farm at (1, -1), (1, 0), (2, -1)
    t.house(1, vertex_of(FIELD, 5))
    # Next to it, sharing the fields (1, 0) and (2, -1): too close
    assert t.refuse(0, BuildFarm(unit=settler, vertex=vertex_of(FIELD, 0))) == (
        "landnam.farm.too_close"
    )
    # Sharing the field (1, 0) and the sea (1, -1): too close as well
    assert t.refuse(0, BuildFarm(unit=settler, vertex=vertex_of(FIELD, 4))) == (
        "landnam.farm.too_close"
    )
    # Given instead a farm at (0, -1), (0, 0), (1, -1), the vertex (0, 0), (1, -1), (1, 0) next
    # to it shares only the central mountain and the sea: allowed
    t.state.houses.clear()
    t.house(1, ((0, -1), (0, 0), (1, -1)))
    t.play(0, BuildFarm(unit=settler, vertex=vertex_of(FIELD, 4)))
    assert vertex_of(FIELD, 4) == ((0, 0), (1, -1), (1, 0))


def test_an_outlawed_unit_cannot_build_a_farm_but_may_age_its_hex() -> None:
    t = table()
    t.land(FIELD, "field", 4)
    outlaw = t.unit(0, "settler", FIELD, red=(1,))
    t.hand(0, grain=2, timber=1, wool=1)
    t.phase("trade")
    assert t.refuse(0, BuildFarm(unit=outlaw, vertex=vertex_of(FIELD, 2))) == (
        "landnam.build.outlawed"
    )
    t.play(0, AgeNumber(unit=outlaw))
    t.play(0, PassDice())
    assert t.state.numbers[FIELD] == 5


def test_a_farm_builds_one_unit_or_a_town_and_a_town_up_to_three() -> None:
    t = table()
    t.land(FIELD, "field", 4)
    for h in [(1, 1), (0, 1), (2, 0)]:
        t.land(h, "sea")
    farm = vertex_of(FIELD, 2)  # (0, 1), (1, 0), (1, 1)
    t.house(0, farm)
    t.hand(0, iron=6, grain=3, timber=6, wool=2)
    t.phase("trade")
    t.play(0, BuildShip(vertex=farm, at=(1, 1)))
    assert t.refuse(0, BuildShip(vertex=farm, at=(0, 1))) == "landnam.build.acted"
    assert t.refuse(0, BuildTown(vertex=farm)) == "landnam.build.acted"
    # A town (built in an earlier turn) builds three units
    t.state.houses[farm] = (0, 2)
    t.state.turn.vertex_actions = {}
    t.play(0, BuildShip(vertex=farm, at=(0, 1)))
    t.play(0, BuildSettler(vertex=farm, at=FIELD))
    assert t.refuse(0, BuildShip(vertex=farm, at=(1, 1))) == "landnam.unit.place"


def test_a_ship_by_farmland_buys_a_harbour_that_works_from_the_next_turn() -> None:
    t = table()
    t.land(FIELD, "field", 4)
    t.land((1, 1), "sea")
    ship = t.unit(0, "ship", (1, 1))
    t.hand(0, timber=4)
    t.phase("trade")
    t.play(0, BuildHarbour(unit=ship, resource="timber"))
    assert t.refuse(0, TradeWithStock(give="timber", get="iron")) == "landnam.trade.short"
    t.play(0, PassDice())
    assert t.state.harbours[(1, 1)] == "timber" and t.state.harbour_stock["timber"] == 1


def test_twelve_points_at_the_end_of_a_turn_end_the_game_with_the_tie_break() -> None:
    t = table()
    t.state.players[0].white = 11
    t.state.players[1].black = 1
    t.state.players[1].white = 11
    t.land(FIELD, "field", 4)
    settler = t.unit(0, "settler", FIELD)
    t.hand(0, grain=1, timber=1, wool=1)
    t.phase("trade")
    t.play(0, BuildFarm(unit=settler, vertex=vertex_of(FIELD, 2)))
    t.play(0, PassDice())
    outcome = GAME.outcome(t.state)
    assert outcome is not None and GAME.to_act(t.state) == []
    # Seat 0 (11 white + a farm) and seat 1 (11 white + black) tie at 12: black wins
    assert outcome.winners == [1] and outcome.tie_break


def test_the_round_limit_ends_the_game() -> None:
    t = table()
    t.state.max_rounds = 1
    t.state.turns_played = 2
    t.phase("trade", seat=2)
    t.play(2, PassDice())
    assert GAME.outcome(t.state) is not None
