"""What players see, what each event shows them, and the hidden-information scrambler.

Hidden (decision 15 in this package's README): the treasures of towns not yet raided (from
everyone), the order and content of the Saga deck and of the Rune deck, and every seat's Runes
from the others (their number is public). Everything else is on the table.
"""

from __future__ import annotations

from contracts.base import Event
from contracts.games.fire_and_axe import (
    FireAndAxeView,
    PendingView,
    PlayerView,
    PortView,
    RuneDeckReshuffled,
    RuneDrawn,
    RuneKind,
    SagaCard,
    TableSetUp,
    TownPlaced,
    TurnStatus,
    WonTown,
)
from domain.chance import Chance
from domain.games.fire_and_axe.data import DATA, PORT_NAMES, clear_days
from domain.games.fire_and_axe.setup import Draws, shuffled
from domain.games.fire_and_axe.state import (
    WAR_CRYS_STACK,
    FireAndAxeState,
    Turn,
    cargo_slots,
    crew_supply,
    rules_at_least,
)


def saga_card(saga_id: int) -> SagaCard:
    """The public face of a Saga."""
    saga = DATA.sagas[saga_id]
    return SagaCard(
        id=saga.id,
        title=saga.title,
        era=saga.era,
        homeland=saga.homeland,
        kind=saga.kind,
        ports=saga.ports,
        points=saga.points,
    )


def _ports(state: FireAndAxeState) -> tuple[PortView, ...]:
    ships = {player.location: seat for seat, player in enumerate(state.players)}
    views = []
    for name in PORT_NAMES:
        port = DATA.ports[name]
        town = state.towns.get(name)
        views.append(
            PortView(
                port=name,
                value=port.value,
                region=port.region,
                zone=port.zone,
                town=None if town is None else town[0],
                good=state.port_goods.get(name),
                settlement=state.settlements.get(name),
                longship=ships.get(name),
            )
        )
    return tuple(views)


def _players(state: FireAndAxeState, viewer: int | None) -> tuple[PlayerView, ...]:
    settled: dict[int, list[str]] = {}
    for port, owner in sorted(state.settlements.items()):
        settled.setdefault(owner, []).append(port)
    return tuple(
        PlayerView(
            seat=seat,
            location=player.location,
            crew=player.crew,
            goods=tuple(player.goods),
            crew_supply=crew_supply(state, seat),
            settlements=tuple(settled.get(seat, ())),
            points=sum(player.points.values()),
            towns=tuple(WonTown(port=p, size=s, treasure=t) for p, s, t in player.towns),
            sagas=tuple(saga_card(saga) for saga in player.sagas),
            rune_count=len(player.runes),
            runes=tuple(player.runes) if viewer == seat else None,
            final_round_tokens=player.final_round_tokens,
        )
        for seat, player in enumerate(state.players)
    )


def _turn(state: FireAndAxeState) -> TurnStatus | None:
    turn = state.turn
    if turn is None:
        return None
    pending = turn.pending
    return TurnStatus(
        seat=turn.seat,
        preparation=turn.preparation,
        sailing=turn.sailing,
        ports_tried=tuple(sorted(turn.tried)),
        skulls_covered=tuple(sorted(turn.skulls)),
        pending=None
        if pending is None
        else PendingView(kind=pending.kind, port=pending.port, losses=pending.losses),
        prepared=tuple(sorted(_prepared(state, turn))),
    )


def _prepared(state: FireAndAxeState, turn: Turn) -> list[RuneKind]:
    """The attack Runes played: one entry per card (revision 1's War Crys did not stack, so
    it lists each kind once)."""
    helps = turn.prepared + turn.attack
    return helps if rules_at_least(state, WAR_CRYS_STACK) else list(set(helps))


def view(state: FireAndAxeState, seat: int | None) -> FireAndAxeView:
    """The table as `seat` sees it (None: a spectator)."""
    return FireAndAxeView(
        viewer=seat,
        players=len(state.players),
        first_seat=state.first_seat,
        conflict_runes=state.conflict_runes,
        era=state.era,
        cargo_slots=cargo_slots(state),
        dial_blue=state.blue,
        clear_days={zone: clear_days(state.blue, zone) for zone in DATA.clockwise},
        demand=state.demand,
        goods_supply=dict(sorted(state.supply.items())),
        ports=_ports(state),
        sagas=tuple(None if saga is None else saga_card(saga) for saga in state.saga_spaces),
        saga_deck=len(state.saga_deck),
        rune_deck=len(state.rune_deck),
        rune_discards=tuple(state.rune_discards),
        final_round_tokens_placed=state.final_placed,
        round=state.round,
        round_limit=state.round_limit,
        seats=_players(state, seat),
        turn=_turn(state),
    )


def visible_event(event: Event, seat: int | None) -> Event | None:
    """The event as `seat` may see it in play: treasures, deck orders and other seats'
    drawn Runes blanked."""
    if isinstance(event, TableSetUp):
        return TableSetUp(
            players=event.players,
            conflict_runes=event.conflict_runes,
            round_limit=event.round_limit,
            first_seat=event.first_seat,
            towns=tuple(TownPlaced(port=t.port, size=t.size, treasure=0) for t in event.towns),
            saga_deck=(),
            rune_deck=(),
            draws=event.draws,
            revision=event.revision,
        )
    if isinstance(event, RuneDrawn) and event.seat != seat:
        return RuneDrawn(seat=event.seat, rune="", action=event.action)
    if isinstance(event, RuneDeckReshuffled):
        return RuneDeckReshuffled(order=(), draws=event.draws)
    return event


def scramble_hidden(state: FireAndAxeState, seat: int | None, chance: Chance) -> FireAndAxeState:
    """A copy in which only what `seat` may not see differs: treasures re-dealt among the
    unraided towns of each size, the Saga deck re-dealt per Era from its unseen cards, the
    Rune deck and the other seats' hands re-dealt from their pooled cards."""
    scrambled = state.copy()
    draws = Draws(chance)
    for size in ("small", "large"):
        ports = sorted(port for port, town in state.towns.items() if town[0] == size)
        treasures = shuffled(sorted(state.towns[port][1] for port in ports), draws)
        for port, treasure in zip(ports, treasures, strict=True):
            scrambled.towns[port] = (size, treasure)
    seen = set(state.saga_discards) | {s for s in state.saga_spaces if s is not None}
    seen |= {saga for player in state.players for saga in player.sagas}
    deck: list[int] = []
    for era in sorted({DATA.sagas[saga].era for saga in state.saga_deck}):
        unseen = sorted(s for s, saga in DATA.sagas.items() if saga.era == era and s not in seen)
        count = sum(1 for saga in state.saga_deck if DATA.sagas[saga].era == era)
        deck += shuffled(unseen, draws)[:count]
    scrambled.saga_deck = deck
    others = [other for other in range(len(state.players)) if other != seat]
    pool: list[RuneKind] = list(state.rune_deck)
    for other in others:
        pool += state.players[other].runes
    pool = shuffled(sorted(pool), draws)
    for other in others:
        count = len(state.players[other].runes)
        scrambled.players[other].runes = sorted(pool[:count])
        pool = pool[count:]
    scrambled.rune_deck = pool
    return scrambled
