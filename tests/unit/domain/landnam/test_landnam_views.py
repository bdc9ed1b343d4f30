"""What each seat sees (decision 22): own cards, others' counts, redacted fate draws."""

from __future__ import annotations

from landnam_helpers import table

from contracts.games.landnam import FateDrawn
from domain.chance import Chance
from domain.games.landnam import GAME


def test_a_seat_sees_its_own_hand_and_only_the_counts_of_the_others() -> None:
    t = table()
    t.hand(0, iron=2, wool=1)
    t.hand(1, grain=3)
    t.state.players[1].fate = ["chase"]
    own = GAME.view(t.state, 0).players
    assert own[0].hand == {"iron": 2, "grain": 0, "timber": 0, "wool": 1}
    assert own[1].hand is None and own[1].fate is None
    assert (own[1].resource_cards, own[1].fate_cards) == (3, 1)
    spectator = GAME.view(t.state, None).players
    assert all(p.hand is None and p.fate is None for p in spectator)


def test_a_fate_card_drawn_is_shown_to_its_drawer_only() -> None:
    drawn = FateDrawn(seat=1, card="pardon", draw=4)
    assert GAME.visible_event(drawn, 1) == drawn
    for viewer in (0, 2, None):
        assert GAME.visible_event(drawn, viewer) == FateDrawn(seat=1, card=None, draw=4)


def test_scrambling_changes_only_what_the_viewer_cannot_see() -> None:
    # Given a table where seats 1 and 2 hold cards
    t = table()
    t.hand(0, iron=1)
    t.hand(1, grain=3, wool=2)
    t.hand(2, timber=4)
    t.state.players[1].fate = ["chase", "landing"]
    for card in ("chase", "landing"):
        t.state.deck.remove(card)
    # When it is scrambled for seat 0
    scrambled = GAME.scramble_hidden(t.state, 0, Chance(b"probe"))
    # Then seat 0's view is the same, seat 0's hand too, and the hidden cards moved
    assert GAME.view(scrambled, 0) == GAME.view(t.state, 0)
    assert scrambled.players[0].hand == t.state.players[0].hand
    assert scrambled != t.state
    for resource in ("iron", "grain", "timber", "wool"):
        total = scrambled.stock[resource] + sum(p.hand[resource] for p in scrambled.players)
        assert total == 24
    assert sorted(scrambled.deck + scrambled.players[1].fate) == sorted(
        t.state.deck + t.state.players[1].fate
    )
