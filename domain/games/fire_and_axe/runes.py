"""Rune cards: playing or discarding one (turning the Wind Dial first), and each effect.

Each kind of Rune has a named effect with its timing window (`EFFECTS`); data.json says how
many of each are in the deck, which are conflict cards, and the same window (a test checks
that the two agree). Decision 7 in this package's README: Runes are played on the owner's
turn, never in a Homeland, and never while another choice is pending.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from contracts.games.fire_and_axe import (
    GOODS,
    AttackPrepared,
    CrewRecruited,
    DemandChanged,
    DialTurned,
    DiscardRune,
    ItemLost,
    PlayRune,
    RuneKind,
    RunePlayed,
    SailingReduced,
    SettlementOverthrown,
    TreasureCollected,
    Wrecked,
)
from domain.games.fire_and_axe.common import in_homeland, refuse
from domain.games.fire_and_axe.data import (
    DATA,
    FAIR_WIND_DAYS,
    RECRUITS,
    Window,
    region_mates,
    turned,
)
from domain.games.fire_and_axe.state import (
    LAST_CREW_UNREST,
    USELESS_RUNE_REFUSED,
    WAR_CRYS_STACK,
    FireAndAxeState,
    crew_supply,
    current_turn,
    free_slots,
    is_port,
    rules_at_least,
)
from domain.games.fire_and_axe.tape import Tape
from domain.games.fire_and_axe.tasks import attack_target, shielded
from domain.games.fire_and_axe.turns import wreck

Check = Callable[[FireAndAxeState, int, PlayRune], None]
Perform = Callable[[Tape, int, PlayRune], None]


@dataclass(frozen=True)
class RuneEffect:
    """What a Rune does, when it may be played, and which parameters it takes."""

    window: Window
    check: Check
    perform: Perform
    takes_target: bool = False
    takes_good: bool = False


# --- timing windows ---------------------------------------------------------------------


def attack_possible(state: FireAndAxeState, port: str) -> bool:
    """Whether a Raid or a Settle could be tried in the port now."""
    if port in current_turn(state).tried:
        return False
    if port in state.towns:
        return True
    return port not in state.settlements and all(
        mate not in state.towns for mate in region_mates(port)
    )


def check_window(state: FireAndAxeState, seat: int, command: PlayRune, window: Window) -> None:
    """Refuse a Rune played outside its timing window."""
    pending = current_turn(state).pending
    location = state.players[seat].location
    if window == "after_raid":
        if pending is None or pending.kind != "treasure":
            refuse("rune", "window", "Play it right after a successful Raid.", rune=command.rune)
        return
    if pending is not None:
        refuse("rune", "pending", f"Answer the pending {pending.kind} first.", rune=command.rune)
    if window == "before_attack":
        if not is_port(location) or not attack_possible(state, location):
            refuse("rune", "window", "Play it in a port before attacking.", rune=command.rune)
    elif window == "in_port_with_rival_settlement":
        owner = state.settlements.get(location)
        if owner is None or owner == seat:
            refuse("rune", "window", "Play it in a port with another player's Settlement.")


# --- effects ----------------------------------------------------------------------------


def _no_check(state: FireAndAxeState, seat: int, command: PlayRune) -> None:
    return None


def _check_change_in_demand(state: FireAndAxeState, seat: int, command: PlayRune) -> None:
    if command.good == state.demand or command.good not in GOODS:
        refuse("rune", "same_demand", "Name another good than the one in demand.")
    if state.supply[command.good] < 1:
        refuse("rune", "no_goods", f"No {command.good} is left in the stockpile.")


def change_in_demand(tape: Tape, seat: int, command: PlayRune) -> None:
    """The good in demand returns to the stockpile; the named one replaces it."""
    assert command.good is not None
    tape.emit(DemandChanged(seat=seat, good=command.good))


def _check_fair_wind(state: FireAndAxeState, seat: int, command: PlayRune) -> None:
    if current_turn(state).sailing < 1:
        refuse("rune", "no_sailing", "The Sailing slider is already at 0.")


def fair_wind(tape: Tape, seat: int, command: PlayRune) -> None:
    """The Sailing slider moves back 2 (not below 0); covered skulls stay covered."""
    sailing = max(0, tape.turn.sailing - FAIR_WIND_DAYS)
    tape.emit(SailingReduced(seat=seat, sailing=sailing))


def _check_recruits(state: FireAndAxeState, seat: int, command: PlayRune) -> None:
    if free_slots(state, seat) < 1 or crew_supply(state, seat) < 1:
        refuse("rune", "no_room", "No open slot, or no crewmember left in your supply.")


def recruits(tape: Tape, seat: int, command: PlayRune) -> None:
    """Up to 2 crewmembers from the supply into open slots (as many as fit)."""
    count = min(RECRUITS, free_slots(tape.state, seat), crew_supply(tape.state, seat))
    tape.emit(CrewRecruited(seat=seat, count=count))


def _check_unrest(state: FireAndAxeState, seat: int, command: PlayRune) -> None:
    # Revision 1: the last crewmember aboard could not settle (decision 18 came with 2).
    if not rules_at_least(state, LAST_CREW_UNREST) and state.players[seat].crew < 2:
        refuse("rune", "last_crew", "Unrest needs a crewmember to spare.")


def unrest(tape: Tape, seat: int, command: PlayRune) -> None:
    """The rival Settlement here returns to its owner's supply; one of your crew settles.
    Decision 18: the last crewmember aboard may settle; the longship is then wrecked."""
    port = tape.state.players[seat].location
    owner = tape.state.settlements[port]
    tape.emit(SettlementOverthrown(seat=seat, owner=owner, port=port))
    if tape.state.players[seat].crew == 0:
        wreck(tape, seat)


def _check_not_prepared(state: FireAndAxeState, seat: int, command: PlayRune) -> None:
    """Revision 1's rule for both attack Runes: not twice for the same attack (a War Cry did
    not stack, a useless one was not refused)."""
    turn = current_turn(state)
    if turn.prepared_port == state.players[seat].location and command.rune in turn.prepared:
        refuse("rune", "already_prepared", "That Rune already helps this attack.")


def _check_war_cry(state: FireAndAxeState, seat: int, command: PlayRune) -> None:
    if not rules_at_least(state, WAR_CRYS_STACK):
        _check_not_prepared(state, seat, command)
    # Decision 19: War Crys stack, +1 each; decision 17: not once every die already wins.
    elif attack_target(state, state.players[seat].location) < 1:
        refuse("rune", "no_effect", "Every die of this attack already succeeds.")


def _check_shield_wall(state: FireAndAxeState, seat: int, command: PlayRune) -> None:
    if not rules_at_least(state, USELESS_RUNE_REFUSED):
        _check_not_prepared(state, seat, command)
    # Decision 17: a second Shield Wall for the same attack would change nothing.
    elif shielded(state, state.players[seat].location):
        refuse("rune", "already_prepared", "Shield Wall already saves every failed die here.")


def prepare_attack(tape: Tape, seat: int, command: PlayRune) -> None:
    """War Cry (+1 to every die) or Shield Wall (failed dice cost no crew) for the next
    attack in this port; sailing away loses it."""
    port = tape.state.players[seat].location
    tape.emit(AttackPrepared(seat=seat, port=port, rune=command.rune))


def _check_rival(state: FireAndAxeState, seat: int, command: PlayRune) -> None:
    if command.target is None or not 0 <= command.target < len(state.players):
        refuse("rune", "target", "Name another player's seat.", target=command.target)
    if command.target == seat:
        refuse("rune", "target_self", "Aim a conflict Rune at another player.")


def _check_plunder(state: FireAndAxeState, seat: int, command: PlayRune) -> None:
    _check_rival(state, seat, command)
    assert command.target is not None
    target = state.players[command.target]
    if not is_port(target.location):
        refuse("rune", "target_not_in_port", "That longship is not in a port.")
    if command.good not in target.goods:
        refuse("rune", "target_has_no_good", f"That longship carries no {command.good}.")


def plunder(tape: Tape, seat: int, command: PlayRune) -> None:
    """One good of another player's longship in a port goes back to the stockpile."""
    assert command.target is not None and command.good is not None
    tape.emit(ItemLost(seat=command.target, item=command.good, reason="plunder"))


def fortune_of_war(tape: Tape, seat: int, command: PlayRune) -> None:
    """The treasure of the town just raided pays double."""
    pending = tape.turn.pending
    assert pending is not None and pending.port is not None
    tape.emit(TreasureCollected(seat=seat, port=pending.port, points=2 * pending.treasure))


def _check_desertion(state: FireAndAxeState, seat: int, command: PlayRune) -> None:
    _check_rival(state, seat, command)
    assert command.target is not None
    if state.players[command.target].crew < 2:
        refuse("rune", "target_last_crew", "Desertion never takes a longship's last crew.")


def desertion(tape: Tape, seat: int, command: PlayRune) -> None:
    """One crewmember of another player's longship returns to its owner's supply."""
    assert command.target is not None
    tape.emit(ItemLost(seat=command.target, item="crew", reason="desertion"))


EFFECTS: dict[RuneKind, RuneEffect] = {
    "change_in_demand": RuneEffect(
        "any_time", _check_change_in_demand, change_in_demand, takes_good=True
    ),
    "fair_wind": RuneEffect("any_time", _check_fair_wind, fair_wind),
    "recruits": RuneEffect("any_time", _check_recruits, recruits),
    "unrest": RuneEffect("in_port_with_rival_settlement", _check_unrest, unrest),
    "war_cry": RuneEffect("before_attack", _check_war_cry, prepare_attack),
    "shield_wall": RuneEffect("before_attack", _check_shield_wall, prepare_attack),
    "plunder": RuneEffect("any_time", _check_plunder, plunder, takes_target=True, takes_good=True),
    "fortune_of_war": RuneEffect("after_raid", _no_check, fortune_of_war),
    "desertion": RuneEffect("any_time", _check_desertion, desertion, takes_target=True),
}


# --- playing and discarding ---------------------------------------------------------------


def _check_hand(state: FireAndAxeState, seat: int, rune: str, dial: int) -> None:
    player = state.players[seat]
    if in_homeland(player):
        refuse("rune", "in_homeland", "Runes are not played or discarded in a Homeland.")
    if rune not in player.runes:
        refuse("rune", "not_in_hand", f"You hold no {rune} Rune.", rune=rune)
    if dial not in (-1, 0, 1):
        refuse("rune", "dial", "Turn the dial -1, 0 or +1 quarter turn.", dial=dial)


def check_play_rune(state: FireAndAxeState, seat: int, command: PlayRune) -> None:
    """A Rune from hand, with the parameters its effect takes, in its window."""
    _check_hand(state, seat, command.rune, command.dial)
    effect = EFFECTS[command.rune]
    if (command.target is not None) != effect.takes_target:
        refuse("rune", "target_shape", "This Rune takes a target seat only if it aims at one.")
    if (command.good is not None) != effect.takes_good:
        refuse("rune", "good_shape", "This Rune names a good only if its effect needs one.")
    check_window(state, seat, command, DATA.runes[command.rune].window)
    effect.check(state, seat, command)


def _discard(tape: Tape, seat: int, rune: RuneKind, dial: int, played: bool) -> None:
    tape.emit(RunePlayed(seat=seat, rune=rune, played=played))
    if dial:
        tape.emit(DialTurned(seat=seat, blue=turned(tape.state.blue, dial)))


def perform_play_rune(tape: Tape, seat: int, command: PlayRune) -> bool:
    """To the discard pile, the dial turned, then the effect; the turn is over if it wrecked
    the player's own longship (Unrest with the last crewmember)."""
    _discard(tape, seat, command.rune, command.dial, played=True)
    EFFECTS[command.rune].perform(tape, seat, command)
    if not rules_at_least(tape.state, LAST_CREW_UNREST):
        return False  # revision 1: no Rune ended its player's turn
    return any(isinstance(event, Wrecked) and event.seat == seat for event in tape.events)


def check_discard_rune(state: FireAndAxeState, seat: int, command: DiscardRune) -> None:
    """A Rune from hand, outside a Homeland, with no choice pending."""
    _check_hand(state, seat, command.rune, command.dial)
    pending = current_turn(state).pending
    if pending is not None:
        refuse("rune", "pending", f"Answer the pending {pending.kind} first.")


def perform_discard_rune(tape: Tape, seat: int, command: DiscardRune) -> bool:
    """To the discard pile without effect, the dial turned."""
    _discard(tape, seat, command.rune, command.dial, played=False)
    return False
