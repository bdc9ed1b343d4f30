"""Applying events to the state: never validates (decide did), may update in place."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from contracts.base import Event
from contracts.games import landnam as ev
from domain.games.landnam.board import CENTRE, edge_lines
from domain.games.landnam.components import (
    EXTRA_STEPS,
    FATE_DECK,
    HARBOUR_MARKERS,
    NUMBER_TOKENS,
    RESOURCE_CARDS,
    RESOURCES,
    STARTING_CARDS,
    TERRAIN_STOCK,
    next_number,
)
from domain.games.landnam.evolve_althing import ALTHING_EVENTS
from domain.games.landnam.state import (
    FIRST_MOVE_TAKES_CARDS,
    SHIP_AFTER_FLIGHT,
    Althing,
    LandnamState,
    Offer,
    Pending,
    Player,
    Turn,
    Unit,
    rules_at_least,
)


def evolve(state: LandnamState | None, event: Event) -> LandnamState:
    """Apply one event."""
    if state is None:
        assert isinstance(event, ev.LandnamBegun), event
        return _begin(event)
    _APPLY[type(event)](state, event)
    return state


def fold(state: LandnamState | None, events: Iterable[Event]) -> LandnamState | None:
    """Apply events in order."""
    for event in events:
        state = evolve(state, event)
    return state


def _begin(event: ev.LandnamBegun) -> LandnamState:
    players = [Player(hand=dict.fromkeys(RESOURCES, STARTING_CARDS)) for _ in range(event.players)]
    return LandnamState(
        players=players,
        first_seat=event.first_seat,
        max_rounds=event.max_rounds,
        terrain={CENTRE: "mountain"},
        numbers={},
        harbours={},
        units={seat: Unit(seat, seat, "ship", None) for seat in range(event.players)},
        next_unit=event.players,
        houses={},
        terrain_stock=dict(TERRAIN_STOCK),
        number_stock=dict(NUMBER_TOKENS),
        harbour_stock=dict(HARBOUR_MARKERS),
        stock={r: RESOURCE_CARDS - STARTING_CARDS * event.players for r in RESOURCES},
        deck=sorted(card for card, count in FATE_DECK.items() for _ in range(count)),
        discards=[],
        claimed_edges=set(),
        draws=1,  # draw 0 picked the first seat
        turns_played=0,
        turn=Turn(seat=event.first_seat),
        revision=event.revision,
    )


def _fate_drawn(state: LandnamState, event: ev.FateDrawn) -> None:
    if event.reshuffled:
        state.deck = sorted(state.discards)
        state.discards = []
    assert event.card is not None, "a redacted event cannot be folded"
    state.deck.remove(event.card)
    hand = state.players[event.seat].fate
    hand.append(event.card)
    hand.sort()
    state.draws = event.draw + 1


def _fate_played(state: LandnamState, event: ev.FatePlayed) -> None:
    state.players[event.seat].fate.remove(event.card)
    state.discards.append(event.card)
    turn = state.turn
    if event.card in EXTRA_STEPS and event.unit is not None:
        turn.extra[event.unit] = turn.extra.get(event.unit, 0) + EXTRA_STEPS[event.card]
    elif event.card == "pardon" and event.unit is not None:
        state.units[event.unit].red.clear()
    elif event.card == "dissolve" and turn.althing is not None:
        turn.althing.dissolved = True


def _dice_rolled(state: LandnamState, event: ev.DiceRolled) -> None:
    state.turn.dice = event.dice
    state.draws = event.draw + 2
    if sum(event.dice) == 7:
        state.turn.althing = Althing()


def _harvest_paid(state: LandnamState, event: ev.HarvestPaid) -> None:
    for paid in event.paid:
        state.players[paid.seat].hand[paid.resource] += paid.count
        state.stock[paid.resource] -= paid.count
    state.turn.producing = event.producing


def _famine(state: LandnamState, event: ev.Famine) -> None:
    for returned in event.returned:
        state.players[returned.seat].hand[returned.resource] -= returned.count
        state.stock[returned.resource] += returned.count
    state.turn.producing = ()


def _number_aged(state: LandnamState, event: ev.NumberAged) -> None:
    age_to(state, event.hex, event.new)
    state.turn.producing = ()


def age_to(state: LandnamState, h: ev.Hex, new: int) -> None:
    """Swap the number token on `h` for `new` from the stock."""
    old = state.numbers[h]
    if new != old:
        state.number_stock[old] += 1
        state.number_stock[new] -= 1
        state.numbers[h] = new


def _phase_began(state: LandnamState, event: ev.PhaseBegan) -> None:
    turn = state.turn
    turn.phase = event.phase
    althing = turn.althing
    if event.phase == "move":
        turn.althing = None
        turn.steps_used = 0
        turn.extra = {}
        turn.moved = set()
    elif event.phase == "window" and althing is not None:
        althing.window = "start" if althing.starter is None else "verdict"
        althing.passed = set()
    elif event.phase == "cases" and althing is not None:
        althing.window = None
        althing.pleading = event.seat
    elif event.phase == "trade":
        turn.chase = None


def _explored(state: LandnamState, event: ev.Explored) -> None:
    state.terrain[event.hex] = event.terrain
    state.terrain_stock[event.terrain] -= 1
    if event.number is not None:
        state.numbers[event.hex] = event.number
        state.number_stock[event.number] -= 1
    if event.rewarded is not None:
        owner = state.units[event.unit].owner
        state.players[owner].hand[event.rewarded] += 1
        state.stock[event.rewarded] -= 1
    state.draws = event.draw + len(event.greens) + (0 if event.red is None else 1)


def _count_step(state: LandnamState, unit_id: int, extra: bool) -> None:
    turn = state.turn
    unit = state.units[unit_id]
    player = state.players[unit.owner]
    if not player.started:
        player.started = True
    if extra:
        turn.extra[unit_id] -= 1
    else:
        turn.steps_used += 1
    turn.moved.add(unit_id)


def _moved(state: LandnamState, event: ev.Moved) -> None:
    unit = state.units[event.unit]
    first_move = not state.players[unit.owner].started
    if first_move and event.to is not None:
        state.claimed_edges.add(edge_lines(event.to)[0])
    if state.turn.chase is None or state.turn.chase[0] != event.unit:
        _count_step(state, event.unit, event.extra)
    state.turn.chase = None
    place(state, unit, event.to)


def place(state: LandnamState, unit: Unit, to: ev.Hex | None) -> None:
    """Put a unit on `to` (None: the outer sea); a ship is on land exactly while its hex is
    land (decision 8), however it got there: a step or a flight (decision 28)."""
    unit.at = to
    if unit.kind == "ship":
        unit.landed = to is not None and state.terrain[to] != "sea"


def _step_spent(state: LandnamState, event: ev.StepSpent) -> None:
    unit = state.units[event.unit]
    if not state.players[unit.owner].started:
        state.claimed_edges.add(edge_lines(event.to)[0])
    _count_step(state, event.unit, event.extra)


def _chased(state: LandnamState, event: ev.Chased) -> None:
    chaser = state.units[event.unit]
    first_move = not state.players[chaser.owner].started
    if first_move and rules_at_least(state, FIRST_MOVE_TAKES_CARDS):  # may chase (decision 27)
        state.claimed_edges.add(edge_lines(event.hex)[0])
    _count_step(state, event.unit, event.extra)
    state.turn.chase = (event.unit, event.victim, event.hex, chaser.at)
    state.turn.phase = "flee"


def _unit_fled(state: LandnamState, event: ev.UnitFled) -> None:
    unit = state.units[event.unit]
    if rules_at_least(state, SHIP_AFTER_FLIGHT):
        place(state, unit, event.to)
    else:  # revision 1: a ship that fled stayed as it was, landed or not
        unit.at = event.to
    state.turn.phase = "move"


def _unit_removed(state: LandnamState, event: ev.UnitRemoved) -> None:
    unit = state.units.pop(event.unit)
    for colour in event.awarded:
        state.players[colour].red += 1
    state.turn.moved.discard(unit.id)
    if state.turn.phase == "flee":
        state.turn.phase = "move"


def _red_discarded(state: LandnamState, event: ev.RedTokensDiscarded) -> None:
    reds = state.units[event.unit].red
    for colour in event.colours:
        reds.remove(colour)


def _stock_traded(state: LandnamState, event: ev.StockTraded) -> None:
    hand = state.players[event.seat].hand
    hand[event.give] -= event.count
    hand[event.get] += 1
    state.stock[event.give] += event.count
    state.stock[event.get] -= 1


def _trade_offered(state: LandnamState, event: ev.TradeOffered) -> None:
    turn = state.turn
    turn.offer = Offer(
        event.seat, event.to, event.give, event.give_count, event.get, event.get_count
    )
    turn.offers_made += 1


def _trade_answered(state: LandnamState, event: ev.TradeAnswered) -> None:
    turn = state.turn
    offer = turn.offer
    assert offer is not None
    if event.accepted:
        active, other = state.players[offer.seat].hand, state.players[event.seat].hand
        active[offer.give] -= offer.give_count
        other[offer.give] += offer.give_count
        other[offer.get] -= offer.get_count
        active[offer.get] += offer.get_count
        turn.offer = None
        return
    offer.declined.add(event.seat)
    targets = offer_targets(state, offer)
    if not targets:
        turn.offer = None


def offer_targets(state: LandnamState, offer: Offer) -> list[int]:
    """The seats that may still answer an offer."""
    seats = range(len(state.players)) if offer.to is None else [offer.to]
    return [seat for seat in seats if seat != offer.seat and seat not in offer.declined]


def _offer_closed(state: LandnamState, event: ev.OfferClosed) -> None:
    state.turn.offer = None


def _build_declared(state: LandnamState, event: ev.BuildDeclared) -> None:
    hand = state.players[event.seat].hand
    for paid in event.cost:
        hand[paid.resource] -= paid.count
        state.stock[paid.resource] += paid.count
    turn = state.turn
    turn.pending.append(
        Pending(event.seat, event.kind, event.unit, event.vertex, event.at, event.resource)
    )
    if event.unit is not None:
        turn.acted.add(event.unit)
    if event.vertex is not None and event.kind in ("town", "settler", "ship"):
        turn.vertex_actions[event.vertex] = turn.vertex_actions.get(event.vertex, 0) + 1


def apply_builds(state: LandnamState) -> None:
    """Decision 13: every pending build takes effect together, in the order declared."""
    for build in state.turn.pending:
        if build.kind == "farm":
            assert build.unit is not None and build.vertex is not None
            state.units.pop(build.unit, None)
            state.houses[build.vertex] = (build.seat, 1)
        elif build.kind == "town":
            assert build.vertex is not None
            state.houses[build.vertex] = (build.seat, 2)
        elif build.kind in ("settler", "ship"):
            kind: ev.UnitKind = "ship" if build.kind == "ship" else "settler"
            state.units[state.next_unit] = Unit(state.next_unit, build.seat, kind, build.at)
            state.next_unit += 1
        elif build.kind == "harbour":
            assert build.at is not None and build.resource is not None
            state.harbours[build.at] = build.resource
            state.harbour_stock[build.resource] -= 1
        elif build.kind == "aging":
            assert build.at is not None
            age_to(state, build.at, next_number(state.numbers[build.at], state.number_stock))
    state.turn.pending = []


def _turn_passed(state: LandnamState, event: ev.LandnamTurnPassed) -> None:
    apply_builds(state)
    state.turns_played += 1
    if event.next_seat is None:
        state.turn = Turn(seat=event.seat, phase="over")
    else:
        state.turn = Turn(seat=event.next_seat)


_APPLY: dict[type[Any], Callable[[LandnamState, Any], None]] = {
    ev.FateDrawn: _fate_drawn,
    ev.FatePlayed: _fate_played,
    ev.DiceRolled: _dice_rolled,
    ev.HarvestPaid: _harvest_paid,
    ev.Famine: _famine,
    ev.NumberAged: _number_aged,
    ev.PhaseBegan: _phase_began,
    ev.Explored: _explored,
    ev.Moved: _moved,
    ev.StepSpent: _step_spent,
    ev.Chased: _chased,
    ev.UnitFled: _unit_fled,
    ev.UnitRemoved: _unit_removed,
    ev.RedTokensDiscarded: _red_discarded,
    ev.StockTraded: _stock_traded,
    ev.TradeOffered: _trade_offered,
    ev.TradeAnswered: _trade_answered,
    ev.OfferClosed: _offer_closed,
    ev.BuildDeclared: _build_declared,
    ev.LandnamTurnPassed: _turn_passed,
    **ALTHING_EVENTS,
}
