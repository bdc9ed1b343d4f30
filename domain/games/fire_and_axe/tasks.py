"""Tasks in a port (Trade, Raid, Settle) and the choices they may leave pending.

Each has a check (raises IllegalCommand, changes nothing) and a perform (writes events to the
tape; returns whether the turn is over).
"""

from __future__ import annotations

from contracts.games.fire_and_axe import (
    GOODS,
    ConfirmSettlement,
    RaidEnded,
    RaidRolled,
    RuneKind,
    Settle,
    SettlementDeclined,
    SettlementMade,
    SettleRolled,
    TownTaken,
    Trade,
    Traded,
    TreasureCollected,
)
from domain.games.fire_and_axe.common import refuse, require_port, require_untried
from domain.games.fire_and_axe.data import (
    DATA,
    DEMAND_BONUS,
    DIE_FACES,
    MAX_RAID_ROLLS,
    MAX_SETTLE_DICE,
    region_mates,
)
from domain.games.fire_and_axe.state import (
    WAR_CRYS_STACK,
    FireAndAxeState,
    effective_value,
    rules_at_least,
)
from domain.games.fire_and_axe.tape import Tape
from domain.games.fire_and_axe.turns import wreck


def check_trade(state: FireAndAxeState, seat: int, command: Trade) -> None:
    """Trade: the good aboard, no good in the port, none of that type in its region."""
    port = require_port(state.players[seat])
    require_untried(state, port)
    if command.good not in GOODS or command.good not in state.players[seat].goods:
        refuse("trade", "not_aboard", f"No {command.good} is aboard.", good=command.good)
    if port in state.port_goods:
        refuse("trade", "port_has_good", f"{port} already holds a good.", port=port)
    for mate in region_mates(port):
        if state.port_goods.get(mate) == command.good:
            refuse(
                "trade",
                "region_has_good",
                f"{mate}, in {port}'s region, already holds {command.good}.",
                port=mate,
            )


def trade_points(state: FireAndAxeState, port: str, good: str) -> int:
    """Decision 8: the port's printed value, +2 for the good in demand."""
    return DATA.ports[port].value + (DEMAND_BONUS if good == state.demand else 0)


def perform_trade(tape: Tape, seat: int, command: Trade) -> bool:
    """The good goes into the port, for VP."""
    port = tape.state.players[seat].location
    points = trade_points(tape.state, port, command.good)
    tape.emit(Traded(seat=seat, port=port, good=command.good, points=points))
    return False


def attack_helps(state: FireAndAxeState, port: str) -> list[RuneKind]:
    """The attack Runes helping an attack in the port: prepared for it, or helping the
    attack under way (one entry per card played)."""
    turn = state.turn
    assert turn is not None
    return turn.attack + (turn.prepared if turn.prepared_port == port else [])


def attack_target(state: FireAndAxeState, port: str) -> int:
    """The highest roll that fails: the port's value, less 1 for a good in it and 1 for
    each War Cry (decision 19: they stack; under revision 1, 1 for any)."""
    war_crys = attack_helps(state, port).count("war_cry")
    if not rules_at_least(state, WAR_CRYS_STACK):
        war_crys = min(war_crys, 1)
    return effective_value(state, port) - war_crys


def shielded(state: FireAndAxeState, port: str) -> bool:
    """Whether Shield Wall covers this attack's failed dice."""
    return "shield_wall" in attack_helps(state, port)


def check_raid(state: FireAndAxeState, seat: int) -> None:
    """Raid: a town in this port, no Task tried here yet."""
    port = require_port(state.players[seat])
    require_untried(state, port)
    if port not in state.towns:
        refuse("raid", "no_town", f"{port} has no town.", port=port)


def perform_raid(tape: Tape, seat: int) -> bool:
    """One roll: above the target the town and its treasure are won; else a crew is lost
    and, with crew left and fewer than three rolls made, the player may roll again."""
    state = tape.state
    port = state.players[seat].location
    target = attack_target(state, port)
    lose = 0 if shielded(state, port) else 1
    value, draw = tape.draw(DIE_FACES)
    roll = value + 1
    success = roll > target
    tape.emit(
        RaidRolled(
            seat=seat,
            port=port,
            roll=roll,
            target=target,
            success=success,
            lost=0 if success else lose,
            draw=draw,
        )
    )
    if success:
        size, treasure = state.towns[port]
        tape.emit(TownTaken(seat=seat, port=port, size=size, treasure=treasure))
        if not tape.state.conflict_runes:
            tape.emit(TreasureCollected(seat=seat, port=port, points=treasure))
        return False
    if tape.state.players[seat].crew == 0:
        wreck(tape, seat)
        return True
    if tape.turn.raid_rolls >= MAX_RAID_ROLLS:
        tape.emit(RaidEnded(seat=seat, port=port))
    return False


def check_raid_choice(state: FireAndAxeState, seat: int) -> None:
    """RaidAgain / StopRaid answer a failed roll."""
    pending = state.turn.pending if state.turn else None
    if pending is None or pending.kind != "raid_again":
        refuse("raid", "not_raiding", "No Raid is waiting for another roll.")


def perform_stop_raid(tape: Tape, seat: int) -> bool:
    """Break off the Raid."""
    pending = tape.turn.pending
    assert pending is not None and pending.port is not None
    tape.emit(RaidEnded(seat=seat, port=pending.port))
    return False


def check_take_treasure(state: FireAndAxeState, seat: int) -> None:
    """Only right after a successful Raid (with the conflict Runes in play)."""
    pending = state.turn.pending if state.turn else None
    if pending is None or pending.kind != "treasure":
        refuse("raid", "no_treasure", "No treasure is waiting to be taken.")


def perform_take_treasure(tape: Tape, seat: int) -> bool:
    """The treasure's VP."""
    pending = tape.turn.pending
    assert pending is not None and pending.port is not None
    tape.emit(TreasureCollected(seat=seat, port=pending.port, points=pending.treasure))
    return False


def check_settle(state: FireAndAxeState, seat: int, command: Settle) -> None:
    """Settle: no town here or in the region, no Settlement here, 1 to 3 dice and at most
    one per crewmember aboard."""
    player = state.players[seat]
    port = require_port(player)
    require_untried(state, port)
    if port in state.towns:
        refuse("settle", "town", f"{port} has a town: raid it first.", port=port)
    if port in state.settlements:
        refuse("settle", "settled", f"{port} is already settled.", port=port)
    for mate in region_mates(port):
        if mate in state.towns:
            refuse("settle", "region_town", f"{mate}, in the region, has a town.", port=mate)
    if not 1 <= command.dice <= min(MAX_SETTLE_DICE, player.crew):
        refuse(
            "settle",
            "dice",
            f"Roll 1 to {min(MAX_SETTLE_DICE, player.crew)} dice.",
            dice=command.dice,
        )


def perform_settle(tape: Tape, seat: int, command: Settle) -> bool:
    """Roll the dice together; failures cost crew; a success settles a crewmember (asked
    first when it is the last one aboard)."""
    state = tape.state
    port = state.players[seat].location
    target = attack_target(state, port)
    shield = shielded(state, port)
    drawn = [tape.draw(DIE_FACES) for _ in range(command.dice)]
    rolls = tuple(value + 1 for value, _ in drawn)
    failures = sum(1 for roll in rolls if roll <= target)
    success = failures < len(rolls)
    tape.emit(
        SettleRolled(
            seat=seat,
            port=port,
            rolls=rolls,
            target=target,
            success=success,
            lost=0 if shield else failures,
            draws=tuple(index for _, index in drawn),
        )
    )
    crew = tape.state.players[seat].crew
    if crew == 0:
        wreck(tape, seat)
        return True
    if success and crew > 1:
        tape.emit(SettlementMade(seat=seat, port=port))
    return False


def check_confirm_settlement(state: FireAndAxeState, seat: int, command: ConfirmSettlement) -> None:
    """Only after a successful Settle with one crewmember left."""
    pending = state.turn.pending if state.turn else None
    if pending is None or pending.kind != "confirm_settlement":
        refuse("settle", "nothing_to_confirm", "No Settlement is waiting for confirmation.")


def perform_confirm_settlement(tape: Tape, seat: int, command: ConfirmSettlement) -> bool:
    """Settle the last crewmember (the ship goes to winter, the turn ends) or keep it."""
    pending = tape.turn.pending
    assert pending is not None and pending.port is not None
    if not command.settle:
        tape.emit(SettlementDeclined(seat=seat, port=pending.port))
        return False
    tape.emit(SettlementMade(seat=seat, port=pending.port))
    wreck(tape, seat)
    return True
