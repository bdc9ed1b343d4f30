"""Applying events to the state: never validates, updates in place, returns the state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

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
        revision=event.revision,
    )


def _score(player: Player, rule: str, points: int) -> None:
    player.points[rule] = player.points.get(rule, 0) + points


def _end_attack(turn: Turn) -> None:
    turn.pending = None
    turn.raid_rolls = 0
    turn.attack = []


def _starting_bonus(state: FireAndAxeState, event: StartingBonus) -> None:
    _score(state.players[event.seat], "starting_bonus", event.points)


def _saga_revealed(state: FireAndAxeState, event: SagaRevealed) -> None:
    state.saga_deck.remove(event.saga)
    state.saga_spaces[event.space] = event.saga


def _saga_discarded(state: FireAndAxeState, event: SagaDiscarded) -> None:
    state.saga_deck.remove(event.saga)
    state.saga_discards.append(event.saga)


def _era_began(state: FireAndAxeState, event: EraBegan) -> None:
    state.era = event.era


def _final_round_tokens_taken(state: FireAndAxeState, event: FinalRoundTokensTaken) -> None:
    state.final_holder = event.seat
    state.players[event.seat].final_round_tokens = 3


def _final_round_token_placed(state: FireAndAxeState, event: FinalRoundTokenPlaced) -> None:
    state.final_placed = event.placed
    state.players[event.seat].final_round_tokens -= 1
    current_turn(state).last_turn = event.placed == 3


def _rune_deck_reshuffled(state: FireAndAxeState, event: RuneDeckReshuffled) -> None:
    state.rune_deck = list(event.order)
    state.rune_discards = []
    if event.draws:
        state.draws = max(event.draws) + 1


def _rune_drawn(state: FireAndAxeState, event: RuneDrawn) -> None:
    player = state.players[event.seat]
    player.runes = sorted([*player.runes, state.rune_deck.pop(0)])
    if event.action:
        current_turn(state).preparation += 1


def _loaded(state: FireAndAxeState, event: Loaded) -> None:
    player = state.players[event.seat]
    if event.item == "crew":
        player.crew += 1
    else:
        state.supply[event.item] -= 1
        player.goods = sorted([*player.goods, event.item])
    current_turn(state).preparation += 1


def _left_wintering(state: FireAndAxeState, event: LeftWintering) -> None:
    state.players[event.seat].location = event.homeland


def _sailed(state: FireAndAxeState, event: Sailed) -> None:
    state.players[event.seat].location = event.to
    turn = current_turn(state)
    turn.sailing += 1
    turn.skulls.update(event.skulls)
    turn.prepared = []
    turn.prepared_port = None
    if event.skulls:
        turn.pending = Pending("losses", losses=len(event.skulls))


def _item_lost(state: FireAndAxeState, event: ItemLost) -> None:
    _lose(state, event.seat, event.item)
    turn = current_turn(state)
    if event.reason == "weather" and turn.pending is not None:
        turn.pending.losses -= 1
        if turn.pending.losses == 0:
            turn.pending = None


def _crew_recruited(state: FireAndAxeState, event: CrewRecruited) -> None:
    state.players[event.seat].crew += event.count


def _to_wintering_zone(state: FireAndAxeState, event: Wrecked | Wintered) -> None:
    player = state.players[event.seat]
    for good in event.goods:
        state.supply[good] += 1
    player.goods = []
    player.crew = 1 if isinstance(event, Wintered) else 0
    player.location = WINTERING
    _end_attack(current_turn(state))


def _traded(state: FireAndAxeState, event: Traded) -> None:
    player = state.players[event.seat]
    player.goods.remove(event.good)
    state.port_goods[event.port] = event.good
    current_turn(state).tried.add(event.port)
    _score(player, "trade", event.points)


def _raid_rolled(state: FireAndAxeState, event: RaidRolled) -> None:
    state.draws = event.draw + 1
    state.players[event.seat].crew -= event.lost
    turn = current_turn(state)
    turn.tried.add(event.port)
    turn.raid_rolls += 1
    if turn.prepared_port == event.port:
        turn.attack += turn.prepared
        turn.prepared = []
        turn.prepared_port = None
    turn.pending = None if event.success else Pending("raid_again", port=event.port)


def _raid_ended(state: FireAndAxeState, event: RaidEnded) -> None:
    _end_attack(current_turn(state))


def _town_taken(state: FireAndAxeState, event: TownTaken) -> None:
    del state.towns[event.port]
    state.players[event.seat].towns.append((event.port, event.size, event.treasure))
    turn = current_turn(state)
    _end_attack(turn)
    if state.conflict_runes:
        turn.pending = Pending("treasure", port=event.port, treasure=event.treasure)


def _treasure_collected(state: FireAndAxeState, event: TreasureCollected) -> None:
    _score(state.players[event.seat], "treasure", event.points)
    current_turn(state).pending = None


def _settle_rolled(state: FireAndAxeState, event: SettleRolled) -> None:
    state.draws = max(event.draws) + 1
    state.players[event.seat].crew -= event.lost
    turn = current_turn(state)
    turn.tried.add(event.port)
    if turn.prepared_port == event.port:  # the dice are rolled together: the help is used
        turn.prepared = []
        turn.prepared_port = None
    if event.success and state.players[event.seat].crew == 1:
        turn.pending = Pending("confirm_settlement", port=event.port)


def _settlement_made(state: FireAndAxeState, event: SettlementMade) -> None:
    state.players[event.seat].crew -= 1
    state.settlements[event.port] = event.seat
    _end_attack(current_turn(state))


def _settlement_declined(state: FireAndAxeState, event: SettlementDeclined) -> None:
    _end_attack(current_turn(state))


def _rune_played(state: FireAndAxeState, event: RunePlayed) -> None:
    state.players[event.seat].runes.remove(event.rune)
    state.rune_discards.append(event.rune)


def _dial_turned(state: FireAndAxeState, event: DialTurned) -> None:
    state.blue = event.blue


def _demand_changed(state: FireAndAxeState, event: DemandChanged) -> None:
    state.supply[state.demand] += 1
    state.supply[event.good] -= 1
    state.demand = event.good


def _sailing_reduced(state: FireAndAxeState, event: SailingReduced) -> None:
    current_turn(state).sailing = event.sailing


def _attack_prepared(state: FireAndAxeState, event: AttackPrepared) -> None:
    turn = current_turn(state)
    turn.prepared.append(event.rune)
    turn.prepared_port = event.port


def _settlement_overthrown(state: FireAndAxeState, event: SettlementOverthrown) -> None:
    state.players[event.seat].crew -= 1
    state.settlements[event.port] = event.seat


def _saga_completed(state: FireAndAxeState, event: SagaCompleted) -> None:
    state.saga_spaces[event.space] = None
    player = state.players[event.seat]
    player.sagas.append(event.saga)
    _score(player, "saga_bonus", event.points)


def _turn_passed(state: FireAndAxeState, event: TurnPassed) -> None:
    state.turn = None


def _turn_began(state: FireAndAxeState, event: TurnBegan) -> None:
    state.turn = Turn(seat=event.seat)
    if event.seat == state.first_seat:
        state.round += 1


def _game_ended(state: FireAndAxeState, event: GameEnded) -> None:
    state.turn = None
    state.ended = True


_APPLY: dict[type, Callable[[FireAndAxeState, Any], None]] = {
    StartingBonus: _starting_bonus,
    SagaRevealed: _saga_revealed,
    SagaDiscarded: _saga_discarded,
    EraBegan: _era_began,
    FinalRoundTokensTaken: _final_round_tokens_taken,
    FinalRoundTokenPlaced: _final_round_token_placed,
    RuneDeckReshuffled: _rune_deck_reshuffled,
    RuneDrawn: _rune_drawn,
    Loaded: _loaded,
    LeftWintering: _left_wintering,
    Sailed: _sailed,
    ItemLost: _item_lost,
    CrewRecruited: _crew_recruited,
    Wrecked: _to_wintering_zone,
    Wintered: _to_wintering_zone,
    Traded: _traded,
    RaidRolled: _raid_rolled,
    RaidEnded: _raid_ended,
    TownTaken: _town_taken,
    TreasureCollected: _treasure_collected,
    SettleRolled: _settle_rolled,
    SettlementMade: _settlement_made,
    SettlementDeclined: _settlement_declined,
    RunePlayed: _rune_played,
    DialTurned: _dial_turned,
    DemandChanged: _demand_changed,
    SailingReduced: _sailing_reduced,
    AttackPrepared: _attack_prepared,
    SettlementOverthrown: _settlement_overthrown,
    SagaCompleted: _saga_completed,
    TurnPassed: _turn_passed,
    TurnBegan: _turn_began,
    GameEnded: _game_ended,
}


def evolve(state: FireAndAxeState | None, event: Event) -> FireAndAxeState:
    """Apply one event (the first one, TableSetUp, creates the state)."""
    if type(event) is TableSetUp:
        return new_state(event)
    assert state is not None, "a Fire & Axe stream starts with TableSetUp"
    apply = _APPLY.get(type(event))
    if apply is None:
        raise TypeError(f"not a Fire & Axe event: {type(event).__name__}")
    apply(state, event)
    return state


def _lose(state: FireAndAxeState, seat: int, item: str) -> None:
    player = state.players[seat]
    if item == "crew":
        player.crew -= 1
    else:
        good = cast(Good, item)
        player.goods.remove(good)
        state.supply[good] += 1
