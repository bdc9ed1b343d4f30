"""Applying the Althing's events (part of `evolve`: applies, never validates)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from contracts.games import landnam as ev
from domain.games.landnam.cases import open_cases
from domain.games.landnam.state import LandnamState, Suit


def _window_passed(state: LandnamState, event: ev.WindowPassed) -> None:
    assert state.turn.althing is not None
    state.turn.althing.passed.add(event.seat)


def _outlaws_removed(state: LandnamState, event: ev.OutlawsRemoved) -> None:
    for unit_id in event.units:
        unit = state.units.pop(unit_id)
        for colour in unit.red:
            state.players[colour].red += 1


def _starter_appointed(state: LandnamState, event: ev.StarterAppointed) -> None:
    althing = state.turn.althing
    assert althing is not None
    althing.starter = event.seat
    althing.window = None
    althing.cases = open_cases(state)


def _case_tried(state: LandnamState, event: ev.CaseTried) -> None:
    althing = state.turn.althing
    assert althing is not None
    defendant = state.units[event.unit].owner
    state.players[event.seat].hand[event.resource] -= event.cards
    state.stock[event.resource] += event.cards
    althing.tried.add((event.seat, event.unit))
    althing.suit = Suit(
        event.unit, event.resource, ([event.seat], [defendant]), [event.cards, 0], acting=1
    )
    state.turn.phase = "suit"


def _add_to_side(state: LandnamState, suit: Suit, seat: int, cards: int) -> None:
    side = 0 if seat in suit.sides[0] else 1
    state.players[seat].hand[suit.resource] -= cards
    state.stock[suit.resource] += cards
    suit.totals[side] += cards
    if suit.totals[side] > suit.totals[1 - side]:
        suit.acting = 1 - side
        suit.standing_by = set()


def _cards_added(state: LandnamState, event: ev.CardsAdded) -> None:
    althing = state.turn.althing
    assert althing is not None and althing.suit is not None
    _add_to_side(state, althing.suit, event.seat, event.cards)


def _stood_by(state: LandnamState, event: ev.StoodBy) -> None:
    althing = state.turn.althing
    assert althing is not None and althing.suit is not None
    althing.suit.standing_by.add(event.seat)


def _aid_asked(state: LandnamState, event: ev.AidAsked) -> None:
    althing = state.turn.althing
    assert althing is not None and althing.suit is not None
    althing.suit.asked = event.asked
    althing.suit.asked_before.add(event.asked)
    state.turn.phase = "aid"


def _aid_answered(state: LandnamState, event: ev.AidAnswered) -> None:
    althing = state.turn.althing
    assert althing is not None and althing.suit is not None
    suit = althing.suit
    suit.asked = None
    if event.cards:
        suit.sides[suit.acting].append(event.seat)
        _add_to_side(state, suit, event.seat, event.cards)
    state.turn.phase = "suit"


def _suit_yielded(state: LandnamState, event: ev.SuitYielded) -> None:
    althing = state.turn.althing
    assert althing is not None and althing.suit is not None
    althing.suit.yielded = True


def _suit_decided(state: LandnamState, event: ev.SuitDecided) -> None:
    althing = state.turn.althing
    assert althing is not None
    althing.suit = None
    althing.window = None
    if event.white is not None:
        state.players[event.white].white += 1
    if event.outlawed is not None and event.colour is not None:
        state.units[event.outlawed].red.append(event.colour)


def _cases_ended(state: LandnamState, event: ev.CasesEnded) -> None:
    althing = state.turn.althing
    assert althing is not None
    althing.done.add(event.seat)


def _althing_closed(state: LandnamState, event: ev.AlthingClosed) -> None:
    for seat in event.black:
        state.players[seat].black += 1
    state.turn.althing = None


ALTHING_EVENTS: dict[type[Any], Callable[[LandnamState, Any], None]] = {
    ev.WindowPassed: _window_passed,
    ev.OutlawsRemoved: _outlaws_removed,
    ev.StarterAppointed: _starter_appointed,
    ev.CaseTried: _case_tried,
    ev.CardsAdded: _cards_added,
    ev.StoodBy: _stood_by,
    ev.AidAsked: _aid_asked,
    ev.AidAnswered: _aid_answered,
    ev.SuitYielded: _suit_yielded,
    ev.SuitDecided: _suit_decided,
    ev.CasesEnded: _cases_ended,
    ev.AlthingClosed: _althing_closed,
}
