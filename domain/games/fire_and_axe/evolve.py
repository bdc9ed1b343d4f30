"""Applying events to the state: never validates, updates in place, returns the state."""

from __future__ import annotations

from typing import cast

from contracts.base import Event
from contracts.games.fire_and_axe import (
    WINTERING,
    AttackPrepared,
    CrewRecruited,
    DemandChanged,
    DialTurned,
    EraBegan,
    FinalRoundTokenPlaced,
    FinalRoundTokensTaken,
    GameEnded,
    Good,
    ItemLost,
    LeftWintering,
    Loaded,
    RaidEnded,
    RaidRolled,
    RuneDeckReshuffled,
    RuneDrawn,
    RunePlayed,
    SagaCompleted,
    SagaDiscarded,
    SagaRevealed,
    Sailed,
    SailingReduced,
    SettlementDeclined,
    SettlementMade,
    SettlementOverthrown,
    SettleRolled,
    StartingBonus,
    TableSetUp,
    TownTaken,
    Traded,
    TreasureCollected,
    TurnBegan,
    TurnPassed,
    Wintered,
    Wrecked,
)
from domain.games.fire_and_axe.data import DATA, GOODS_PER_TYPE, SAGA_SPACES
from domain.games.fire_and_axe.state import (
    FireAndAxeState,
    Pending,
    Player,
    Turn,
    current_turn,
)

START_DEMAND: Good = "fish"


def new_state(event: TableSetUp) -> FireAndAxeState:
    """The table the setup event describes; one Fish from the supply is in demand."""
    supply: dict[Good, int] = {
        "fish": GOODS_PER_TYPE,
        "tusks": GOODS_PER_TYPE,
        "furs": GOODS_PER_TYPE,
    }
    supply[START_DEMAND] -= 1
    return FireAndAxeState(
        conflict_runes=event.conflict_runes,
        round_limit=event.round_limit,
        first_seat=event.first_seat,
        players=[Player() for _ in range(event.players)],
        towns={town.port: (town.size, town.treasure) for town in event.towns},
        port_goods={},
        settlements={},
        supply=supply,
        demand=START_DEMAND,
        blue=DATA.start_blue,
        era=1,
        saga_spaces=[None] * SAGA_SPACES,
        saga_deck=list(event.saga_deck),
        saga_discards=[],
        rune_deck=list(event.rune_deck),
        rune_discards=[],
        draws=event.draws,
    )


def _score(player: Player, rule: str, points: int) -> None:
    player.points[rule] = player.points.get(rule, 0) + points


def _end_attack(turn: Turn) -> None:
    turn.pending = None
    turn.raid_rolls = 0
    turn.attack = set()


def evolve(state: FireAndAxeState | None, event: Event) -> FireAndAxeState:
    """Apply one event (the first one, TableSetUp, creates the state)."""
    if isinstance(event, TableSetUp):
        return new_state(event)
    assert state is not None, "a Fire & Axe stream starts with TableSetUp"
    match event:
        case StartingBonus(seat=seat, points=points):
            _score(state.players[seat], "starting_bonus", points)
        case SagaRevealed(saga=saga, space=space):
            state.saga_deck.remove(saga)
            state.saga_spaces[space] = saga
        case SagaDiscarded(saga=saga):
            state.saga_deck.remove(saga)
            state.saga_discards.append(saga)
        case EraBegan(era=era):
            state.era = era
        case FinalRoundTokensTaken(seat=seat):
            state.final_holder = seat
            state.players[seat].final_round_tokens = 3
        case FinalRoundTokenPlaced(seat=seat, placed=placed):
            state.final_placed = placed
            state.players[seat].final_round_tokens -= 1
            current_turn(state).last_turn = placed == 3
        case RuneDeckReshuffled(order=order, draws=draws):
            state.rune_deck = list(order)
            state.rune_discards = []
            if draws:
                state.draws = max(draws) + 1
        case RuneDrawn(seat=seat, action=action):
            player = state.players[seat]
            player.runes = sorted([*player.runes, state.rune_deck.pop(0)])
            if action:
                current_turn(state).preparation += 1
        case Loaded(seat=seat, item=item):
            player = state.players[seat]
            if item == "crew":
                player.crew += 1
            else:
                state.supply[item] -= 1
                player.goods = sorted([*player.goods, item])
            current_turn(state).preparation += 1
        case LeftWintering(seat=seat, homeland=homeland):
            state.players[seat].location = homeland
        case Sailed(seat=seat, to=to, skulls=skulls):
            state.players[seat].location = to
            turn = current_turn(state)
            turn.sailing += 1
            turn.skulls.update(skulls)
            turn.prepared = set()
            turn.prepared_port = None
            if skulls:
                turn.pending = Pending("losses", losses=len(skulls))
        case ItemLost(seat=seat, item=item, reason=reason):
            _lose(state, seat, item)
            turn = current_turn(state)
            if reason == "weather" and turn.pending is not None:
                turn.pending.losses -= 1
                if turn.pending.losses == 0:
                    turn.pending = None
        case CrewRecruited(seat=seat, count=count):
            state.players[seat].crew += count
        case Wrecked(seat=seat, goods=goods) | Wintered(seat=seat, goods=goods):
            player = state.players[seat]
            for good in goods:
                state.supply[good] += 1
            player.goods = []
            player.crew = 1 if isinstance(event, Wintered) else 0
            player.location = WINTERING
            _end_attack(current_turn(state))
        case Traded(seat=seat, port=port, good=good, points=points):
            player = state.players[seat]
            player.goods.remove(good)
            state.port_goods[port] = good
            current_turn(state).tried.add(port)
            _score(player, "trade", points)
        case RaidRolled(seat=seat, port=port, success=success, lost=lost, draw=draw):
            state.draws = draw + 1
            state.players[seat].crew -= lost
            turn = current_turn(state)
            turn.tried.add(port)
            turn.raid_rolls += 1
            if turn.prepared_port == port:
                turn.attack |= turn.prepared
                turn.prepared = set()
                turn.prepared_port = None
            turn.pending = None if success else Pending("raid_again", port=port)
        case RaidEnded():
            _end_attack(current_turn(state))
        case TownTaken(seat=seat, port=port, size=size, treasure=treasure):
            del state.towns[port]
            state.players[seat].towns.append((port, size, treasure))
            turn = current_turn(state)
            _end_attack(turn)
            if state.conflict_runes:
                turn.pending = Pending("treasure", port=port, treasure=treasure)
        case TreasureCollected(seat=seat, points=points):
            _score(state.players[seat], "treasure", points)
            current_turn(state).pending = None
        case SettleRolled(seat=seat, port=port, success=success, lost=lost, draws=draws):
            state.draws = max(draws) + 1
            state.players[seat].crew -= lost
            turn = current_turn(state)
            turn.tried.add(port)
            if turn.prepared_port == port:  # the dice are rolled together: the help is used
                turn.prepared = set()
                turn.prepared_port = None
            if success and state.players[seat].crew == 1:
                turn.pending = Pending("confirm_settlement", port=port)
        case SettlementMade(seat=seat, port=port):
            state.players[seat].crew -= 1
            state.settlements[port] = seat
            _end_attack(current_turn(state))
        case SettlementDeclined():
            _end_attack(current_turn(state))
        case RunePlayed(seat=seat, rune=rune):
            state.players[seat].runes.remove(rune)
            state.rune_discards.append(rune)
        case DialTurned(blue=blue):
            state.blue = blue
        case DemandChanged(good=good):
            state.supply[state.demand] += 1
            state.supply[good] -= 1
            state.demand = good
        case SailingReduced(sailing=sailing):
            current_turn(state).sailing = sailing
        case AttackPrepared(port=port, rune=rune):
            turn = current_turn(state)
            turn.prepared.add(rune)
            turn.prepared_port = port
        case SettlementOverthrown(seat=seat, port=port):
            state.players[seat].crew -= 1
            state.settlements[port] = seat
        case SagaCompleted(seat=seat, saga=saga, space=space, points=points):
            state.saga_spaces[space] = None
            player = state.players[seat]
            player.sagas.append(saga)
            _score(player, "saga_bonus", points)
        case TurnPassed():
            state.turn = None
        case TurnBegan(seat=seat):
            state.turn = Turn(seat=seat)
            if seat == state.first_seat:
                state.round += 1
        case GameEnded():
            state.turn = None
            state.ended = True
        case _:
            raise TypeError(f"not a Fire & Axe event: {type(event).__name__}")
    return state


def _lose(state: FireAndAxeState, seat: int, item: str) -> None:
    player = state.players[seat]
    if item == "crew":
        player.crew -= 1
    else:
        good = cast(Good, item)
        player.goods.remove(good)
        state.supply[good] += 1
