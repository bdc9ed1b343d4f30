"""Every legal command for a seat, and a superset of them for refusal tests.

`legal_commands` is the candidates that `decide.check` accepts, so a command is listed if
and only if `decide` accepts it.
"""

from __future__ import annotations

from itertools import product

from contracts.base import Command
from contracts.games.fire_and_axe import (
    GOODS,
    HOMELANDS,
    ITEMS,
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
    RuneKind,
    Sail,
    Settle,
    StopRaid,
    TakeTreasure,
    Trade,
    Winter,
)
from domain.games.fire_and_axe.data import DATA, MAX_SETTLE_DICE, NODES
from domain.games.fire_and_axe.decide import accepts
from domain.games.fire_and_axe.runes import EFFECTS
from domain.games.fire_and_axe.state import FireAndAxeState

DIALS = (0, -1, 1)


def _rune_commands(kinds: list[RuneKind], seats: int, wrong_shapes: bool) -> list[Command]:
    commands: list[Command] = []
    for kind in kinds:
        effect = EFFECTS[kind]
        targets: list[int | None] = list(range(seats)) if effect.takes_target else [None]
        goods: list[str | None] = list(GOODS) if effect.takes_good else [None]
        if wrong_shapes:
            targets = [*targets, None, seats] if effect.takes_target else [None, 0]
            goods = [*goods, None] if effect.takes_good else [None, "fish"]
        for dial, target, good in product(DIALS, targets, goods):
            commands.append(PlayRune(rune=kind, dial=dial, target=target, good=good))  # type: ignore[arg-type]
        commands += [DiscardRune(rune=kind, dial=dial) for dial in DIALS]
    return commands


def _commands(
    state: FireAndAxeState,
    seat: int,
    sail_to: tuple[str, ...],
    runes: list[RuneKind],
    wrong_shapes: bool,
) -> list[Command]:
    commands: list[Command] = [
        *(ChooseLoss(item=item) for item in ITEMS),
        RaidAgain(),
        StopRaid(),
        TakeTreasure(),
        ConfirmSettlement(settle=True),
        ConfirmSettlement(settle=False),
        *(Load(item=item) for item in ITEMS),
        *(LeaveWintering(homeland=homeland) for homeland in HOMELANDS),
        DrawRune(),
        *(Sail(to=node) for node in sail_to),
        *(Trade(good=good) for good in GOODS),
        Raid(),
        *(Settle(dice=dice) for dice in range(1, MAX_SETTLE_DICE + 1)),
        *_rune_commands(runes, len(state.players), wrong_shapes),
        Winter(),
        DeclareTurnOver(),
    ]
    return commands


def to_act(state: FireAndAxeState) -> list[int]:
    """The current player, or nobody once the game is over."""
    return [] if state.turn is None or state.ended else [state.turn.seat]


def legal_commands(state: FireAndAxeState, seat: int) -> list[Command]:
    """Every command `seat` may send now, in a stable order."""
    if state.turn is None or state.turn.seat != seat:
        return []
    location = state.players[seat].location
    held = sorted(set(state.players[seat].runes))
    candidates = _commands(state, seat, DATA.neighbours.get(location, ()), held, False)
    return [command for command in candidates if accepts(state, command, seat)]


def candidate_commands(state: FireAndAxeState, seat: int) -> list[Command]:
    """Plausible commands, legal or not: every shape, every node, every Rune kind."""
    kinds: list[RuneKind] = sorted(EFFECTS)
    return _commands(state, seat, NODES, kinds, True)
