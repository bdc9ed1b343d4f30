"""The Althing on a 7 (decisions 17 to 20): draws, windows, outlaws, suits, aid, tokens."""

from __future__ import annotations

from landnam_helpers import Table, draw_index_giving, table, vertex_of

from contracts.games.landnam import (
    AddCards,
    AppointStarter,
    AskAid,
    EndCases,
    JoinSide,
    PassWindow,
    PlayFate,
    RefuseAid,
    RollDice,
    StandBy,
    TryCase,
    YieldSuit,
)
from domain.games.landnam import GAME

FIELD = (1, 0)


def pass_window(t: Table) -> None:
    """Every seat the window waits for passes."""
    while t.state.turn.phase == "window":
        t.play(GAME.to_act(t.state)[0], PassWindow())


def roll_seven(t: Table) -> None:
    t.state.draws = draw_index_giving(t, 7, 6, count=2, start=t.state.draws)
    t.play(0, RollDice())


def court(t: Table, starter: int = 0) -> None:
    """Roll a 7, pass the start window, appoint the starter."""
    roll_seven(t)
    pass_window(t)
    t.play(0, AppointStarter(seat=starter))


def trespass() -> tuple[Table, int]:
    """Seat 1's settler on a field beside seat 0's farm: one case for seat 0."""
    t = table()
    t.land(FIELD, "field", 4)
    settler = t.unit(1, "settler", FIELD)
    t.house(0, vertex_of(FIELD, 0))
    t.hand(0, grain=4)
    t.hand(1, grain=3)
    t.hand(2, grain=5)
    return t, settler


def test_a_seven_draws_fate_cards_for_the_active_player_and_the_empty_handed() -> None:
    # Given seat 2 already holds a fate card
    t = table()
    t.state.players[2].fate = ["landing"]
    t.state.deck.remove("landing")
    roll_seven(t)
    # Then seats 0 and 1 drew one each, seat 2 none, and the start window waits for all
    assert [len(p.fate) for p in t.state.players] == [1, 1, 1]
    assert t.state.turn.phase == "window" and GAME.to_act(t.state) == [0, 1, 2]


def test_outlawed_units_leave_play_at_the_start_and_their_tokens_are_awarded() -> None:
    t = table()
    t.land(FIELD, "field", 4)
    outlaw = t.unit(1, "settler", FIELD, red=(2,))
    roll_seven(t)
    pass_window(t)
    assert outlaw not in t.state.units and t.state.players[2].red == 1
    assert t.state.turn.phase == "appoint" and GAME.to_act(t.state) == [0]


def test_a_won_suit_gives_the_plaintiff_white_and_outlaws_the_unit_in_its_colour() -> None:
    # Given seat 0's case against seat 1's settler
    t, settler = trespass()
    court(t)
    assert t.state.turn.phase == "cases" and GAME.to_act(t.state) == [0]
    # When seat 0 plays 2 grain and seat 1 yields
    t.play(0, TryCase(unit=settler, cards=2))
    assert GAME.to_act(t.state) == [1]
    t.play(1, YieldSuit())
    pass_window(t)
    # Then seat 0 takes a white token, the settler is outlawed in seat 0's colour
    assert t.state.players[0].white == 1
    assert t.state.units[settler].red == [0]
    assert t.state.players[0].hand["grain"] == 2
    # And with no case left the Althing closes and phase 2 begins
    assert t.state.turn.phase == "move" and t.state.turn.althing is None


def test_a_lost_suit_gives_the_defence_white_and_spends_every_card() -> None:
    t, settler = trespass()
    court(t)
    t.play(0, TryCase(unit=settler, cards=2))
    # The defence adds until it is higher; then the plaintiff acts
    t.play(1, AddCards(cards=3))
    assert t.state.turn.althing is not None and t.state.turn.althing.suit is not None
    assert t.state.turn.althing.suit.acting == 0
    t.play(0, YieldSuit())
    pass_window(t)
    assert t.state.players[1].white == 1 and t.state.units[settler].red == []
    assert t.state.players[0].hand["grain"] == 2 and t.state.players[1].hand["grain"] == 0
    assert t.state.stock["grain"] == 24 - 2 - 0 - 5


def test_aid_joined_makes_the_helper_the_leader_who_takes_the_white_token() -> None:
    t, settler = trespass()
    court(t)
    t.play(0, TryCase(unit=settler, cards=4))
    # The defence leader asks seat 2, who joins with 5: the defence is higher
    t.play(1, AskAid(seat=2))
    assert GAME.to_act(t.state) == [2]
    t.play(2, JoinSide(cards=5))
    suit = t.state.turn.althing.suit  # type: ignore[union-attr]
    assert suit is not None and suit.sides[1] == [1, 2] and suit.acting == 0
    # The plaintiff, out of grain, yields
    t.play(0, YieldSuit())
    pass_window(t)
    assert t.state.players[2].white == 1 and t.state.players[1].white == 0
    assert t.state.units[settler].red == []


def test_several_members_of_the_acting_side_may_act_and_only_the_leader_yields() -> None:
    t, settler = trespass()
    court(t)
    t.play(0, TryCase(unit=settler, cards=1))
    t.play(1, AskAid(seat=2))
    t.play(2, JoinSide(cards=1))
    # 1 against 1: the defence (seats 1 and 2, led by 2) still acts, both hold grain
    assert GAME.to_act(t.state) == [1, 2]
    assert t.refuse(1, YieldSuit()) == "landnam.suit.not_acting"
    assert YieldSuit() in t.legal(2)
    assert t.refuse(0, AddCards(cards=1)) == "turn.not_yours"
    t.play(1, AddCards(cards=1))
    assert GAME.to_act(t.state) == [0]


def test_a_member_without_cards_is_asked_too_and_may_stand_by() -> None:
    # Given seat 2 joined the defence with all its grain, and seat 0 raised above it
    t, settler = trespass()
    t.hand(2, grain=2)
    court(t)
    t.play(0, TryCase(unit=settler, cards=1))
    t.play(1, AskAid(seat=2))
    t.play(2, JoinSide(cards=2))
    t.play(0, AddCards(cards=2))
    assert t.state.players[2].hand["grain"] == 0
    # Then seat 1 (a member, with grain) and seat 2 (the leader, with none) are both asked
    assert GAME.to_act(t.state) == [1, 2]
    assert t.refuse(2, StandBy()) == "landnam.suit.leader"
    # When seat 1 stands by, only the leader is left to act
    t.play(1, StandBy())
    assert GAME.to_act(t.state) == [2]
    assert t.legal(2) == [YieldSuit()]


def test_aid_refused_and_a_seat_is_asked_once_per_suit() -> None:
    t, settler = trespass()
    court(t)
    t.play(0, TryCase(unit=settler, cards=1))
    t.play(1, AskAid(seat=2))
    t.play(2, RefuseAid())
    assert GAME.to_act(t.state) == [1]
    assert t.refuse(1, AskAid(seat=2)) == "landnam.suit.aid"


def test_adjourn_interrupts_the_suit_cards_stay_spent_and_nobody_scores() -> None:
    t, settler = trespass()
    court(t)
    t.play(0, TryCase(unit=settler, cards=2))
    t.play(1, YieldSuit())
    # In the verdict window seat 1 plays Adjourn
    assert t.state.turn.phase == "window"
    t.state.players[1].fate = ["adjourn"]
    t.play(1, PlayFate(card="adjourn"))
    assert t.state.players[0].white == 0 and t.state.units[settler].red == []
    assert t.state.players[0].hand["grain"] == 2
    assert t.state.turn.phase == "move"


def test_dissolve_in_the_start_window_skips_the_cases_but_removes_outlaws() -> None:
    t, _ = trespass()
    outlaw = t.unit(2, "settler", (2, -1), red=(1,))
    t.land((2, -1), "field", 5)
    roll_seven(t)
    t.state.players[2].fate = ["dissolve"]
    t.play(2, PlayFate(card="dissolve"))
    assert outlaw not in t.state.units and t.state.players[1].red == 1
    assert t.state.turn.phase == "move" and t.state.players[0].white == 0


def test_pardon_saves_an_outlaw_from_removal() -> None:
    t = table()
    t.land(FIELD, "field", 4)
    outlaw = t.unit(1, "settler", FIELD, red=(2,))
    roll_seven(t)
    t.state.players[1].fate = ["pardon"]
    t.play(1, PlayFate(card="pardon", unit=outlaw))
    pass_window(t)
    assert outlaw in t.state.units and t.state.players[2].red == 0


def test_three_untried_cases_give_their_defendant_a_black_token() -> None:
    # Given three plaintiffs' farms around seat 1's settler
    t, settler = trespass()
    t.house(2, vertex_of(FIELD, 2))
    t.house(0, vertex_of(FIELD, 4))
    t.state.houses.pop(vertex_of(FIELD, 0))
    t.land((-1, 0), "field", 6)
    t.house(2, vertex_of((-1, 0), 0))
    second = t.unit(1, "settler", (-1, 0))
    court(t)
    # When nobody sues (seat 0 and seat 2 end their cases)
    cases = t.state.turn.althing.cases  # type: ignore[union-attr]
    assert sorted((c.plaintiff, c.unit) for c in cases) == sorted(
        [(0, settler), (2, second), (2, settler)]
    )
    t.play(0, EndCases())
    t.play(2, EndCases())
    # Then seat 1 (3 cases, none tried) gets a black token
    assert t.state.players[1].black == 1
