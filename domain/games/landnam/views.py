"""What players see (decision 22): hands only to their owner, counts to all; the resource
stock and the fate deck's content are hidden from everyone. Also the text drawing."""

from __future__ import annotations

from contracts.base import Event
from contracts.games import landnam as c
from domain.chance import Chance
from domain.games.landnam.board import ISLAND
from domain.games.landnam.building import houses_in_use
from domain.games.landnam.components import (
    HOUSES,
    RESOURCES,
    SETTLERS,
    SHIPS,
)
from domain.games.landnam.state import LandnamState, points


def _player(state: LandnamState, seat: int, viewer: int | None) -> c.LandnamPlayerView:
    player = state.players[seat]
    own = viewer == seat
    ships = sum(1 for u in state.units.values() if u.owner == seat and u.kind == "ship")
    settlers = sum(1 for u in state.units.values() if u.owner == seat and u.kind == "settler")
    return c.LandnamPlayerView(
        seat=seat,
        resource_cards=sum(player.hand.values()),
        fate_cards=len(player.fate),
        white=player.white,
        red=player.red,
        black=player.black,
        points=points(state, seat),
        ships_left=SHIPS - ships,
        settlers_left=SETTLERS - settlers,
        houses_left=HOUSES - houses_in_use(state, seat),
        hand={r: player.hand[r] for r in RESOURCES} if own else None,
        fate=tuple(player.fate) if own else None,
    )


def view(state: LandnamState, seat: int | None) -> c.LandnamView:
    """The table as `seat` sees it."""
    turn = state.turn
    offer = turn.offer
    althing = turn.althing
    suit = None if althing is None else althing.suit
    over = turn.phase == "over"
    return c.LandnamView(
        viewer=seat,
        players=tuple(_player(state, s, seat) for s in range(len(state.players))),
        cells=tuple(
            c.CellView(hex=h, terrain=t, number=state.numbers.get(h), harbour=state.harbours.get(h))
            for h, t in sorted(state.terrain.items())
        ),
        units=tuple(
            c.UnitView(
                id=u.id, owner=u.owner, kind=u.kind, at=u.at, landed=u.landed, red=tuple(u.red)
            )
            for u in sorted(state.units.values(), key=lambda u: u.id)
        ),
        houses=tuple(
            c.HouseView(vertex=v, owner=owner, level=level)
            for v, (owner, level) in sorted(state.houses.items())
        ),
        terrain_stock={str(t): n for t, n in state.terrain_stock.items()},
        number_stock={str(v): n for v, n in sorted(state.number_stock.items())},
        harbour_stock={str(r): n for r, n in state.harbour_stock.items()},
        fate_deck=len(state.deck),
        fate_discards=tuple(state.discards),
        claimed_edges=tuple(sorted(state.claimed_edges)),
        active=None if over else turn.seat,
        phase=turn.phase,
        turn=state.turns_played,
        max_rounds=state.max_rounds,
        dice=turn.dice,
        steps_left=max(0, 2 - turn.steps_used),
        pending=tuple(
            c.LandnamPendingView(
                kind=p.kind, unit=p.unit, vertex=p.vertex, at=p.at, resource=p.resource
            )
            for p in turn.pending
        ),
        offer=None
        if offer is None
        else c.OfferView(
            seat=offer.seat,
            to=offer.to,
            give=offer.give,
            give_count=offer.give_count,
            get=offer.get,
            get_count=offer.get_count,
            declined=tuple(sorted(offer.declined)),
        ),
        offers_made=turn.offers_made,
        althing=None
        if althing is None
        else c.AlthingView(
            starter=althing.starter,
            pleading=althing.pleading,
            window=althing.window,
            passed=tuple(sorted(althing.passed)),
            suit=None
            if suit is None
            else c.SuitView(
                unit=suit.unit,
                resource=suit.resource,
                plaintiff=tuple(suit.sides[0]),
                defence=tuple(suit.sides[1]),
                totals=(suit.totals[0], suit.totals[1]),
                acting_side=suit.acting,
                asked=suit.asked,
                standing_by=tuple(sorted(suit.standing_by)),
            ),
        ),
        fleeing=None if turn.chase is None else turn.chase[1],
    )


def visible_event(event: Event, seat: int | None) -> Event | None:
    """A fate card drawn is shown to its drawer only; every other event is public."""
    if isinstance(event, c.FateDrawn) and event.seat != seat:
        return c.FateDrawn(seat=event.seat, card=None, draw=event.draw, reshuffled=event.reshuffled)
    return event


def scramble_hidden(state: LandnamState, seat: int | None, chance: Chance) -> LandnamState:
    """A copy whose hidden cards differ: the other players' resource hands are re-dealt from
    their cards and the stock, and their fate hands from theirs and the deck, keeping every
    count the viewer sees. Two states the viewer cannot tell apart give the same copy."""
    scrambled = state.copy()
    others = [s for s in range(len(state.players)) if s != seat]
    draw = 0
    pool = [r for r in RESOURCES for _ in range(state.stock[r])]
    pool += [r for s in others for r in RESOURCES for _ in range(state.players[s].hand[r])]
    fates = list(state.deck) + [card for s in others for card in state.players[s].fate]
    # Dealt from sorted pools: the copy depends on what the viewer sees only (its counts),
    # never on how the hidden cards lie now (a greedy bot plans on this copy).
    pool.sort()
    fates.sort()
    for s in others:
        player = scrambled.players[s]
        size = sum(player.hand.values())
        player.hand = dict.fromkeys(RESOURCES, 0)
        for _ in range(size):
            player.hand[pool.pop(chance.below(draw, len(pool)))] += 1
            draw += 1
        hand = []
        for _ in range(len(player.fate)):
            hand.append(fates.pop(chance.below(draw, len(fates))))
            draw += 1
        player.fate = sorted(hand)
    scrambled.stock = {r: pool.count(r) for r in RESOURCES}
    scrambled.deck = sorted(fates)
    return scrambled


_TERRAIN_LETTER = {
    "sea": "~",
    "bog": "B",
    "field": "F",
    "pasture": "P",
    "forest": "W",
    "mountain": "M",
}


def render_text(state: LandnamState) -> str:
    """A readable drawing: the island by rows, units, houses, players and the turn."""
    rows: dict[int, list[str]] = {}
    for h in sorted(ISLAND, key=lambda h: (h[1], h[0])):
        terrain = state.terrain.get(h)
        label = "?" if terrain is None else _TERRAIN_LETTER[terrain]
        if h in state.numbers:
            label += str(state.numbers[h])
        unit = state.unit_at(h)
        if unit is not None:
            label += ("s" if unit.kind == "ship" else "h") + str(unit.owner)
        rows.setdefault(h[1], []).append(label.ljust(6))
    lines = [
        "Legend: ~ sea, B bog, F field, P pasture, W forest, M mountain, ? unexplored; "
        "s<seat> ship, h<seat> settler"
    ]
    for r in sorted(rows):
        lines.append(" " * (3 * abs(r)) + "".join(rows[r]))
    out = [u.id for u in state.units.values() if u.at is None]
    lines.append(f"Outer sea: units {out}")
    for v, (owner, level) in sorted(state.houses.items()):
        lines.append(f"{'town' if level == 2 else 'farm'} of seat {owner} at {v}")
    for seat, player in enumerate(state.players):
        lines.append(
            f"Seat {seat}: {points(state, seat)} VP, {sum(player.hand.values())} resource and "
            f"{len(player.fate)} fate cards, tokens W{player.white} R{player.red} "
            f"B{player.black}"
        )
    turn = state.turn
    lines.append(
        f"Turn {state.turns_played}: seat {turn.seat}, phase {turn.phase}, dice {turn.dice}"
    )
    return "\n".join(lines)
