"""Deciding a command: the rule checks of its area, then the events it produces.

Each command has a check (raises IllegalCommand; the only validation) and a producer (emits
events on a scratch state). `legal.py` lists a command when its check passes, so the legal
commands and what `decide` accepts are the same by construction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from contracts.base import Command, Event
from contracts.games import landnam as cmd
from domain.chance import Chance
from domain.errors import IllegalCommand
from domain.games.landnam import althing, building, harvest, movement, trade
from domain.games.landnam.state import LandnamState
from domain.games.landnam.work import Work

Check = Callable[[LandnamState, int, Any], None]
Produce = Callable[[Work, int, Any], None]

_RULES: dict[type[Any], tuple[Check, Produce]] = {
    cmd.RollDice: (harvest.check_roll, harvest.do_roll),
    cmd.Proceed: (harvest.check_proceed, harvest.do_proceed),
    cmd.ChooseAging: (harvest.check_aging, harvest.do_aging),
    cmd.Step: (movement.check_step, movement.do_step),
    cmd.EndMovement: (movement.check_end_movement, movement.do_end_movement),
    cmd.Flee: (movement.check_flee, movement.do_flee),
    cmd.TradeWithStock: (trade.check_stock_trade, trade.do_stock_trade),
    cmd.OfferTrade: (trade.check_offer, trade.do_offer),
    cmd.AcceptTrade: (trade.check_accept, trade.do_accept),
    cmd.DeclineTrade: (trade.check_decline, trade.do_decline),
    cmd.WithdrawOffer: (trade.check_withdraw, trade.do_withdraw),
    cmd.BuildFarm: (building.check_farm, building.do_farm),
    cmd.BuildTown: (building.check_town, building.do_town),
    cmd.BuildSettler: (building.check_settler, building.do_settler),
    cmd.BuildShip: (building.check_ship, building.do_ship),
    cmd.BuildHarbour: (building.check_harbour, building.do_harbour),
    cmd.AgeNumber: (building.check_aging, building.do_aging),
    cmd.PassDice: (building.check_pass, building.do_pass),
    cmd.PassWindow: (althing.check_pass_window, althing.do_pass_window),
    cmd.AppointStarter: (althing.check_appoint, althing.do_appoint),
    cmd.TryCase: (althing.check_try_case, althing.do_try_case),
    cmd.EndCases: (althing.check_end_cases, althing.do_end_cases),
    cmd.AddCards: (althing.check_add_cards, althing.do_add_cards),
    cmd.StandBy: (althing.check_stand_by, althing.do_stand_by),
    cmd.AskAid: (althing.check_ask_aid, althing.do_ask_aid),
    cmd.JoinSide: (althing.check_join, althing.do_join),
    cmd.RefuseAid: (althing.check_refuse, althing.do_refuse),
    cmd.YieldSuit: (althing.check_yield, althing.do_yield),
}

# A fate card played on its own: the rules of the phase it is played in (decision 16).
_FATE_RULES: dict[str, tuple[Check, Produce]] = {
    "harvest_card": (harvest.check_harvest_card, harvest.do_harvest_card),
    "move": (movement.check_extra_steps, movement.do_extra_steps),
    "window": (althing.check_althing_card, althing.do_althing_card),
}


def _rules(state: LandnamState, command: Command) -> tuple[Check, Produce]:
    if isinstance(command, cmd.PlayFate):
        rules = _FATE_RULES.get(state.turn.phase)
        if rules is None:
            raise IllegalCommand(
                "landnam.fate.wrong_phase", f"{command.card} cannot be played now."
            )
        return rules
    rules = _RULES.get(type(command))
    if rules is None:
        raise IllegalCommand(
            "landnam.command.unknown", f"{type(command).__name__} is not a Landnám command."
        )
    return rules


def check(state: LandnamState, command: Command, seat: int) -> None:
    """Refuse the command if the rules do not allow it (the turn rules are the engine's)."""
    rules = _rules(state, command)
    rules[0](state, seat, command)


def decide(state: LandnamState, command: Command, seat: int, chance: Chance) -> list[Event]:
    """The events a command produces; raises IllegalCommand when the rules refuse it."""
    check_rule, produce = _rules(state, command)
    check_rule(state, seat, command)
    work = Work(state, chance)
    produce(work, seat, command)
    return work.events
