"""The engine's own counts and limits, which the rule book does not give (decisions 24 and 25
in the Landnám README, and its data provenance): the terrain stock, the round limit and the
offer limits."""

from __future__ import annotations

from landnam_helpers import table

from contracts.games.landnam import LandnamConfig, OfferTrade, PassDice
from domain.chance import Chance
from domain.engine import fold
from domain.games.landnam import GAME


def test_a_new_game_stocks_the_retuned_terrain_counts() -> None:
    state = fold(GAME, GAME.setup(LandnamConfig(players=3), Chance(bytes(32))))
    assert state is not None
    assert state.terrain_stock == {
        "sea": 14, "bog": 9, "field": 9, "pasture": 22, "forest": 9, "mountain": 13,
    }  # fmt: skip


def test_by_default_the_game_ends_with_the_sixtieth_round_and_not_before() -> None:
    # Given a 3-player game with the default limit, two turns before its 60th round ends
    assert LandnamConfig(players=3).max_rounds == 60
    t = table()
    assert t.state.max_rounds == 60
    t.state.turns_played = 60 * 3 - 2
    # When the next-to-last turn of round 60 ends, the game goes on
    t.phase("trade", seat=1)
    t.play(1, PassDice())
    assert GAME.outcome(t.state) is None and t.state.turn.seat == 2
    # And when the round's last turn ends, the game is over
    t.phase("trade", seat=2)
    t.play(2, PassDice())
    assert GAME.outcome(t.state) is not None and GAME.to_act(t.state) == []


def test_an_offer_gives_one_to_three_cards_for_one_to_three() -> None:
    t = table()
    t.hand(0, iron=4)
    t.phase("trade")
    too_many = OfferTrade(to=1, give="iron", give_count=4, get="grain", get_count=1)
    asks_too_many = OfferTrade(to=1, give="iron", give_count=1, get="grain", get_count=4)
    none = OfferTrade(to=1, give="iron", give_count=0, get="grain", get_count=1)
    for refused in (too_many, asks_too_many, none):
        assert t.refuse(0, refused) == "landnam.offer.count"
    t.play(0, OfferTrade(to=1, give="iron", give_count=3, get="grain", get_count=3))
    assert t.state.turn.offer is not None
    # And the legal offers never go beyond three cards a side
    offers = [c for c in t.legal(0) if isinstance(c, OfferTrade)]
    assert offers and max(max(c.give_count, c.get_count) for c in offers) == 3
