"""Who acts (decision 23), every legal command of a seat, and a superset for refusal tests.

A command is legal when `decide.check` accepts it, so `legal_commands` agrees with `decide` by
construction; `candidate_commands` must hold every command that could be accepted, per phase.
"""

from __future__ import annotations

from contracts.base import Command
from contracts.games import landnam as cmd
from domain.errors import IllegalCommand
from domain.games.landnam.althing import remaining_cases, suit_waits_for, window_waits_for
from domain.games.landnam.board import corners
from domain.games.landnam.components import (
    ALTHING_CARDS,
    EXTRA_STEPS,
    HARVEST_CARDS,
    MAX_OFFER_CARDS,
    RESOURCES,
)
from domain.games.landnam.decide import check
from domain.games.landnam.evolve import offer_targets
from domain.games.landnam.movement import reachable
from domain.games.landnam.state import LandnamState

# Commands of other phases, for refusal tests.
_OFF_PHASE: tuple[Command, ...] = (
    cmd.RollDice(),
    cmd.Proceed(),
    cmd.EndMovement(),
    cmd.PassDice(),
    cmd.PassWindow(),
    cmd.EndCases(),
    cmd.YieldSuit(),
    cmd.RefuseAid(),
    cmd.AcceptTrade(),
    cmd.WithdrawOffer(),
)


def to_act(state: LandnamState) -> list[int]:
    """Every seat the game waits for now (empty once it is over)."""
    turn = state.turn
    phase = turn.phase
    if phase == "over":
        return []
    if phase == "trade" and turn.offer is not None:
        return sorted({turn.seat, *offer_targets(state, turn.offer)})
    if phase == "flee":
        assert turn.chase is not None
        return [state.units[turn.chase[1]].owner]
    if _between_events(state):
        # Only between the events of one command (the Althing closed, the next phase not
        # begun yet): replay shows such versions; the active seat is the one who goes on.
        return [turn.seat]
    if phase == "window":
        return window_waits_for(state)
    if phase == "cases":
        assert turn.althing is not None and turn.althing.pleading is not None
        return [turn.althing.pleading]
    if phase == "suit":
        return suit_waits_for(state)
    if phase == "aid":
        assert turn.althing is not None and turn.althing.suit is not None
        asked = turn.althing.suit.asked
        assert asked is not None
        return [asked]
    return [turn.seat]


def _between_events(state: LandnamState) -> bool:
    """Whether the state is one a command passes through but never stops at: an Althing
    phase with the Althing already closed. No command is decided there."""
    turn = state.turn
    return turn.phase in ("window", "cases", "suit", "aid") and turn.althing is None


def legal_commands(state: LandnamState, seat: int) -> list[Command]:
    """Every command `seat` may send now, in a stable order."""
    if seat not in to_act(state) or _between_events(state):
        return []
    legal = []
    for command in _phase_candidates(state, seat):
        try:
            check(state, command, seat)
        except IllegalCommand:
            continue
        legal.append(command)
    return legal


def candidate_commands(state: LandnamState, seat: int) -> list[Command]:
    """Plausible commands, legal or not."""
    return [*_phase_candidates(state, seat), *_OFF_PHASE]


def _phase_candidates(state: LandnamState, seat: int) -> list[Command]:
    phase = state.turn.phase
    hand = state.players[seat].hand
    held = sorted(set(state.players[seat].fate))
    commands: list[Command] = []
    if phase == "roll":
        commands.append(cmd.RollDice())
    elif phase == "harvest_card":
        commands += [
            cmd.PlayFate(card=card, shift=shift)
            for card in sorted(HARVEST_CARDS)
            for shift in (0, -1, 1)
        ]
        commands.append(cmd.Proceed())
    elif phase == "aging":
        commands += [cmd.ChooseAging(hex=h) for h in sorted(state.numbers)]
    elif phase == "window":
        commands.append(cmd.PassWindow())
        commands += [cmd.PlayFate(card="pardon", unit=unit) for unit in sorted(state.units)]
        commands += [cmd.PlayFate(card=card) for card in sorted(ALTHING_CARDS)]
    elif phase == "appoint":
        commands += [cmd.AppointStarter(seat=s) for s in range(len(state.players) + 1)]
    elif phase == "cases":
        for case in remaining_cases(state, seat):
            commands += [
                cmd.TryCase(unit=case.unit, cards=n) for n in range(1, hand[case.resource] + 2)
            ]
        commands.append(cmd.EndCases())
    elif phase in ("suit", "aid"):
        althing = state.turn.althing
        assert althing is not None and althing.suit is not None
        most = hand[althing.suit.resource] + 1
        commands += [cmd.AddCards(cards=n) for n in range(1, most + 1)]
        commands += [cmd.AskAid(seat=s) for s in range(len(state.players))]
        commands += [cmd.YieldSuit(), cmd.StandBy()]
        commands += [cmd.JoinSide(cards=n) for n in range(1, most + 1)]
        commands.append(cmd.RefuseAid())
    elif phase == "move":
        commands += _step_candidates(state, seat, held)
        commands.append(cmd.EndMovement())
    elif phase == "flee":
        chase = state.turn.chase
        assert chase is not None
        commands += [cmd.Flee(to=to) for to in reachable(state.units[chase[1]])]
    elif phase == "trade":
        commands += _trade_candidates(state, seat, hand)
        commands += _build_candidates(state, seat)
        commands.append(cmd.PassDice())
    return commands


def _step_candidates(state: LandnamState, seat: int, held: list[cmd.FateKind]) -> list[Command]:
    commands: list[Command] = []
    fates: list[cmd.FateKind | None] = [None, *(c for c in held if c not in HARVEST_CARDS)]
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        if unit.owner != seat:
            continue
        for to in reachable(unit):
            commands += [cmd.Step(unit=unit.id, to=to, fate=fate) for fate in fates]
        commands += [cmd.PlayFate(card=card, unit=unit.id) for card in held if card in EXTRA_STEPS]
    return commands


def _trade_candidates(
    state: LandnamState, seat: int, hand: dict[cmd.Resource, int]
) -> list[Command]:
    commands: list[Command] = [
        cmd.TradeWithStock(give=give, get=get) for give in RESOURCES for get in RESOURCES
    ]
    if seat == state.turn.seat:
        targets: list[int | None] = [None, *(s for s in range(len(state.players)) if s != seat)]
        commands += [
            cmd.OfferTrade(to=to, give=give, give_count=n, get=get, get_count=m)
            for to in targets
            for give in RESOURCES
            if hand[give]
            for n in range(1, min(hand[give], MAX_OFFER_CARDS) + 1)
            for get in RESOURCES
            if get != give
            for m in range(1, MAX_OFFER_CARDS + 1)
        ]
    commands += [cmd.AcceptTrade(), cmd.DeclineTrade(), cmd.WithdrawOffer()]
    return commands


def _build_candidates(state: LandnamState, seat: int) -> list[Command]:
    if seat != state.turn.seat:
        return []
    commands: list[Command] = []
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        if unit.owner != seat:
            continue
        if unit.at is not None:
            commands += [cmd.BuildFarm(unit=unit.id, vertex=v) for v in corners(unit.at)]
        commands += [cmd.BuildHarbour(unit=unit.id, resource=r) for r in RESOURCES]
        commands.append(cmd.AgeNumber(unit=unit.id))
    for vertex, (owner, _) in sorted(state.houses.items()):
        if owner != seat:
            continue
        commands.append(cmd.BuildTown(vertex=vertex))
        commands += [cmd.BuildSettler(vertex=vertex, at=h) for h in vertex]
        commands += [cmd.BuildShip(vertex=vertex, at=h) for h in vertex]
    commands.append(cmd.BuildShip(vertex=None, at=None))
    return commands


# The choices by which a seat passes, in the order a skipped turn prefers them: close an
# Althing window, refuse an offer or aid, withdraw its own offer, end its cases, let the
# harvest go, end the movement, end the turn.
PASSING: tuple[type[Command], ...] = (
    cmd.PassWindow,
    cmd.DeclineTrade,
    cmd.RefuseAid,
    cmd.WithdrawOffer,
    cmd.EndCases,
    cmd.Proceed,
    cmd.EndMovement,
    cmd.PassDice,
)


def passing_command(state: LandnamState, seat: int) -> Command | None:
    """The seat's legal passing choice now (`PASSING`), or None when its decision has none
    (rolling the dice, an aging choice, appointing the starter, a suit's side)."""
    legal = legal_commands(state, seat)
    for kind in PASSING:
        for command in legal:
            if type(command) is kind:
                return command
    return None
