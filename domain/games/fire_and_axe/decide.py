"""Checking a command against the rules and turning it into events.

The only place that validates: `check` raises IllegalCommand (`fire_and_axe.<area>.<what>`)
and changes nothing; `decide` checks, then performs the command on a scratch copy, gives the
seat every Saga now fulfilled, and passes the turn when the command ended it. `legal_commands`
lists exactly the candidates `check` accepts, so the two always agree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from contracts.base import Command, Event
from contracts.games.fire_and_axe import (
    ChooseLoss,
    ConfirmSettlement,
    DeclareTurnOver,
    DiscardRune,
    DrawRune,
    LeaveWintering,
    Load,
    PlayRune,
    Raid,
    RaidAgain,
    Sail,
    Settle,
    StopRaid,
    TakeTreasure,
    Trade,
    Winter,
)
from domain.chance import Chance
from domain.errors import IllegalCommand
from domain.games.fire_and_axe import runes, tasks, voyage
from domain.games.fire_and_axe.common import refuse
from domain.games.fire_and_axe.sagas import complete_sagas
from domain.games.fire_and_axe.state import (
    TREASURE_BEFORE_END,
    FireAndAxeState,
    current_turn,
    rules_at_least,
)
from domain.games.fire_and_axe.tape import Tape
from domain.games.fire_and_axe.turns import pass_turn

CheckFn = Callable[[FireAndAxeState, int, Any], None]
PerformFn = Callable[[Tape, int, Any], bool]


def _ignore_command(check: Callable[[FireAndAxeState, int], None]) -> CheckFn:
    return lambda state, seat, command: check(state, seat)


def _ignore_command_perform(perform: Callable[[Tape, int], bool]) -> PerformFn:
    return lambda tape, seat, command: perform(tape, seat)


def _declare_turn_over(tape: Tape, seat: int) -> bool:
    return True


# Command type -> (check, perform, the pending choice it answers or None).
RULES: dict[type, tuple[CheckFn, PerformFn, str | None]] = {
    Load: (voyage.check_load, voyage.perform_load, None),
    LeaveWintering: (voyage.check_leave_wintering, voyage.perform_leave_wintering, None),
    DrawRune: (voyage.check_draw_rune, voyage.perform_draw_rune, None),
    Sail: (voyage.check_sail, voyage.perform_sail, None),
    ChooseLoss: (voyage.check_choose_loss, voyage.perform_choose_loss, "losses"),
    Winter: (
        _ignore_command(voyage.check_winter),
        _ignore_command_perform(voyage.perform_winter),
        None,
    ),
    DeclareTurnOver: (
        _ignore_command(voyage.check_declare_turn_over),
        _ignore_command_perform(_declare_turn_over),
        None,
    ),
    Trade: (tasks.check_trade, tasks.perform_trade, None),
    Raid: (_ignore_command(tasks.check_raid), _ignore_command_perform(tasks.perform_raid), None),
    RaidAgain: (
        _ignore_command(tasks.check_raid_choice),
        _ignore_command_perform(tasks.perform_raid),
        "raid_again",
    ),
    StopRaid: (
        _ignore_command(tasks.check_raid_choice),
        _ignore_command_perform(tasks.perform_stop_raid),
        "raid_again",
    ),
    TakeTreasure: (
        _ignore_command(tasks.check_take_treasure),
        _ignore_command_perform(tasks.perform_take_treasure),
        "treasure",
    ),
    Settle: (tasks.check_settle, tasks.perform_settle, None),
    ConfirmSettlement: (
        tasks.check_confirm_settlement,
        tasks.perform_confirm_settlement,
        "confirm_settlement",
    ),
    PlayRune: (runes.check_play_rune, runes.perform_play_rune, None),
    DiscardRune: (runes.check_discard_rune, runes.perform_discard_rune, None),
}


def check(state: FireAndAxeState, command: Command, seat: int) -> None:
    """Raise IllegalCommand unless the rules allow `command` from `seat` now."""
    rule = RULES.get(type(command))
    if rule is None:
        refuse(
            "command",
            "unknown",
            f"Fire & Axe has no command {type(command).__name__}.",
            command=type(command).__name__,
        )
    check_fn, _, answers = rule
    pending = current_turn(state).pending
    if pending is not None and answers != pending.kind:
        fortune = isinstance(command, PlayRune) and command.rune == "fortune_of_war"
        if not (fortune and pending.kind == "treasure"):
            refuse(
                "pending",
                pending.kind,
                f"Answer the pending {pending.kind.replace('_', ' ')} first.",
                pending=pending.kind,
            )
    check_fn(state, seat, command)


def decide(state: FireAndAxeState, command: Command, seat: int, chance: Chance) -> list[Event]:
    """The events `command` from `seat` produces; raises IllegalCommand if the rules refuse."""
    check(state, command, seat)
    tape = Tape(state, chance)
    turn_over = RULES[type(command)][1](tape, seat, command)
    if not _treasure_waits_for_the_end(tape, seat):
        complete_sagas(tape, seat)
    if turn_over and not tape.state.ended:
        pass_turn(tape)
    return tape.events


def _treasure_waits_for_the_end(tape: Tape, seat: int) -> bool:
    """Decision 20: whether a Raid's treasure still waits (the Fortune of War window) while
    the Saga check would end the game; the check then runs once the treasure is taken, so
    the Raid resolves in full before the end. Revision 1 never waited (the game could end
    with the treasure still owed)."""
    if not rules_at_least(tape.state, TREASURE_BEFORE_END):
        return False
    pending = tape.state.turn.pending if tape.state.turn else None
    if pending is None or pending.kind != "treasure":
        return False
    trial = Tape(tape.state, tape.chance)
    complete_sagas(trial, seat)
    return trial.state.ended


def accepts(state: FireAndAxeState, command: Command, seat: int) -> bool:
    """Whether `check` lets the command through."""
    try:
        check(state, command, seat)
    except IllegalCommand:
        return False
    return True
