"""Actions (Load, Draw a Rune, Sail), weather losses, wintering and ending the turn.

Each command has a check (raises IllegalCommand, never changes anything) and a perform
(writes events to the tape; returns whether the turn is over).
"""

from __future__ import annotations

from contracts.games.fire_and_axe import (
    GOODS,
    WINTERING,
    ChooseLoss,
    DrawRune,
    Item,
    ItemLost,
    LeaveWintering,
    LeftWintering,
    Load,
    Loaded,
    RuneDeckReshuffled,
    RuneDrawn,
    Sail,
    Sailed,
    Wintered,
)
from domain.games.fire_and_axe.common import (
    in_homeland,
    refuse,
    require_at_sea,
    require_days,
)
from domain.games.fire_and_axe.data import DATA, HAND_LIMIT, clear_days
from domain.games.fire_and_axe.setup import Draws, shuffled
from domain.games.fire_and_axe.state import (
    FireAndAxeState,
    crew_supply,
    current_turn,
    free_slots,
    is_port,
    occupant,
)
from domain.games.fire_and_axe.tape import Tape
from domain.games.fire_and_axe.turns import wreck


def check_load(state: FireAndAxeState, seat: int, command: Load) -> None:
    """Load: in the Wintering Zone, a Day and an open slot left, the item in supply; a good
    only if a crewmember can still be loaded after it (decision 5)."""
    player = state.players[seat]
    if player.location != WINTERING:
        refuse("load", "not_wintering", "Load only in the Wintering Zone.")
    turn = current_turn(state)
    require_days(turn)
    slots = free_slots(state, seat)
    if slots < 1:
        refuse("load", "no_slot", "No open slot is left on the longship in this Era.")
    if command.item == "crew":
        if crew_supply(state, seat) < 1:
            refuse("load", "no_crew", "No crewmember is left in your supply.")
        return
    if command.item not in GOODS:
        refuse("load", "unknown_item", f"No such item: {command.item}.", item=command.item)
    if state.supply[command.item] < 1:
        refuse("load", "no_goods", f"No {command.item} is left in the stockpile.")
    if player.crew == 0 and (slots < 2 or turn.days_left < 2):
        refuse("load", "crew_first", "Leave a slot and a Day for the crewmember you need.")


def perform_load(tape: Tape, seat: int, command: Load) -> bool:
    """One item aboard, one Day of Preparation."""
    tape.emit(Loaded(seat=seat, item=command.item))
    return False


def check_leave_wintering(state: FireAndAxeState, seat: int, command: LeaveWintering) -> None:
    """Leave the Wintering Zone for a Homeland, with at least one crewmember aboard."""
    player = state.players[seat]
    if player.location != WINTERING:
        refuse("wintering", "not_wintering", "The longship is not in the Wintering Zone.")
    if command.homeland not in DATA.homelands:
        refuse("wintering", "not_a_homeland", f"{command.homeland} is not a Homeland.")
    if player.crew < 1:
        refuse("wintering", "no_crew", "Load at least one crewmember before leaving.")


def perform_leave_wintering(tape: Tape, seat: int, command: LeaveWintering) -> bool:
    """The free move to a Homeland."""
    tape.emit(LeftWintering(seat=seat, homeland=command.homeland))
    return False


def check_draw_rune(state: FireAndAxeState, seat: int, command: DrawRune) -> None:
    """Draw a Rune: in a Homeland, a Day left, fewer than three in hand, a card to draw."""
    player = state.players[seat]
    if not in_homeland(player):
        refuse("rune", "not_in_homeland", "Draw a Rune only in a Homeland.")
    require_days(current_turn(state))
    if len(player.runes) >= HAND_LIMIT:
        refuse("rune", "hand_full", f"You already hold {HAND_LIMIT} Runes.")
    if not state.rune_deck and not state.rune_discards:
        refuse("rune", "deck_empty", "No Rune is left in the deck or the discards.")


def perform_draw_rune(tape: Tape, seat: int, command: DrawRune) -> bool:
    """Take the top Rune, first rebuilding an empty deck from the discards (decision 7)."""
    if not tape.state.rune_deck:
        draws = Draws(tape.chance, tape.state.draws)
        order = shuffled(sorted(tape.state.rune_discards), draws)
        tape.emit(RuneDeckReshuffled(order=tuple(order), draws=tuple(draws.indices)))
    tape.emit(RuneDrawn(seat=seat, rune=tape.state.rune_deck[0], action=True))
    return False


def check_sail(state: FireAndAxeState, seat: int, command: Sail) -> None:
    """Sail to an adjacent node, a Day left; a port holds one longship."""
    player = state.players[seat]
    require_at_sea(player)
    if command.to not in DATA.neighbours.get(player.location, ()):
        refuse(
            "sail",
            "not_adjacent",
            f"{command.to} is not next to {player.location}.",
            to=command.to,
            location=player.location,
        )
    require_days(current_turn(state))
    if is_port(command.to) and occupant(state, command.to) is not None:
        refuse("sail", "port_taken", f"Another longship is in {command.to}.", to=command.to)


def new_skulls(covered: set[int], excess: int) -> tuple[int, ...]:
    """Decision 4: the skulls a Sail covers: the highest at or below the excess and every
    uncovered one left of it, skipping those already covered this turn."""
    reached = [index for index, at in enumerate(DATA.skulls) if at <= excess]
    if not reached:
        return ()
    return tuple(index for index in range(reached[-1] + 1) if index not in covered)


def perform_sail(tape: Tape, seat: int, command: Sail) -> bool:
    """Move, then take losses if the Sailing slider exceeds the Clear Weather Days there."""
    turn = tape.turn
    excess = turn.sailing + 1 - clear_days(tape.state.blue, DATA.zone[command.to])
    skulls = new_skulls(turn.skulls, excess)
    tape.emit(Sailed(seat=seat, to=command.to, excess=excess, skulls=skulls))
    return settle_losses(tape, seat)


def items_aboard(tape: Tape, seat: int) -> list[Item]:
    """Crewmembers and goods aboard, as items."""
    player = tape.state.players[seat]
    crew: list[Item] = ["crew"] * player.crew
    return crew + list(player.goods)


def settle_losses(tape: Tape, seat: int) -> bool:
    """Take the losses due without asking when there is no choice (one kind of item aboard,
    or no more items than losses); wreck when the last crewmember goes."""
    while (pending := tape.turn.pending) is not None and pending.kind == "losses":
        items = items_aboard(tape, seat)
        if len(set(items)) > 1 and len(items) > pending.losses:
            return False
        tape.emit(ItemLost(seat=seat, item=items[-1], reason="weather"))
        if tape.state.players[seat].crew == 0:
            wreck(tape, seat)
            return True
    return False


def check_choose_loss(state: FireAndAxeState, seat: int, command: ChooseLoss) -> None:
    """A loss must be due and the item aboard."""
    pending = current_turn(state).pending
    if pending is None or pending.kind != "losses":
        refuse("losses", "none_due", "No loss is due.")
    player = state.players[seat]
    aboard = player.crew > 0 if command.item == "crew" else command.item in player.goods
    if not aboard:
        refuse("losses", "not_aboard", f"No {command.item} is aboard.", item=command.item)


def perform_choose_loss(tape: Tape, seat: int, command: ChooseLoss) -> bool:
    """Cover a skull with the chosen item; the rest follow when there is no choice left."""
    tape.emit(ItemLost(seat=seat, item=command.item, reason="weather"))
    if tape.state.players[seat].crew == 0:
        wreck(tape, seat)
        return True
    return settle_losses(tape, seat)


def check_winter(state: FireAndAxeState, seat: int) -> None:
    """Move to the Wintering Zone from anywhere on the map."""
    require_at_sea(state.players[seat])


def perform_winter(tape: Tape, seat: int) -> bool:
    """Keep one crewmember, discard the rest and every good; the turn ends."""
    player = tape.state.players[seat]
    tape.emit(Wintered(seat=seat, crew_discarded=player.crew - 1, goods=tuple(player.goods)))
    return True


def check_declare_turn_over(state: FireAndAxeState, seat: int) -> None:
    """Decision 5: a turn cannot end in the Wintering Zone."""
    require_at_sea(state.players[seat])
