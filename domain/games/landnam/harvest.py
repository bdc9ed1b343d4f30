"""Phase 1 when the dice do not show 7: the harvest, famine and aging (decisions 4 and 10)."""

from __future__ import annotations

from collections import defaultdict

from contracts.games.landnam import (
    Cards,
    ChooseAging,
    DiceRolled,
    Famine,
    FatePlayed,
    HarvestPaid,
    Hex,
    NumberAged,
    PhaseBegan,
    PlayFate,
    Proceed,
    Resource,
    RollDice,
)
from domain.errors import IllegalCommand
from domain.games.landnam.althing import open_althing
from domain.games.landnam.board import corners
from domain.games.landnam.components import HARVEST_CARDS, PRODUCES, RESOURCES, next_number
from domain.games.landnam.requirements import require_card, require_phase
from domain.games.landnam.state import LandnamState
from domain.games.landnam.work import Work


def check_roll(state: LandnamState, seat: int, command: RollDice) -> None:
    """Phase 1 opens with the roll."""
    require_phase(state, "roll")


def do_roll(work: Work, seat: int, command: RollDice) -> None:
    """Roll; a 7 opens the Althing, anything else the harvest."""
    index = work.state.draws
    dice = (work.roll(6, index), work.roll(6, index + 1))
    work.emit(DiceRolled(seat=seat, dice=dice, draw=index))
    if sum(dice) == 7:
        open_althing(work)
    elif work.state.players[seat].fate:
        work.emit(PhaseBegan(phase="harvest_card", seat=seat))
    else:
        harvest(work, sum(dice), good_year=False, fallow=False)


def check_harvest_card(state: LandnamState, seat: int, command: PlayFate) -> None:
    """One Harvest card, in the harvest's own window (decision 10)."""
    require_phase(state, "harvest_card")
    if command.card not in HARVEST_CARDS:
        raise IllegalCommand("landnam.fate.wrong_phase", f"{command.card} is not a Harvest card.")
    require_card(state, seat, command)
    if command.unit is not None:
        raise IllegalCommand("landnam.fate.no_unit", "A Harvest card names no unit.")
    if command.card == "shift":
        if command.shift not in (-1, 1):
            raise IllegalCommand("landnam.fate.shift", "Shift moves the result by +1 or -1.")
        if harvest_total(state, command.shift) is None:
            raise IllegalCommand("landnam.fate.shift_range", "The result must stay 2-12, not 7.")
    elif command.shift:
        raise IllegalCommand("landnam.fate.shift", "Only Shift changes the result.")


def harvest_total(state: LandnamState, shift: int) -> int | None:
    """The dice's sum moved by `shift`, or None when that leaves 2-12 or makes 7."""
    assert state.turn.dice is not None
    total = sum(state.turn.dice) + shift
    return total if 2 <= total <= 12 and total != 7 else None


def do_harvest_card(work: Work, seat: int, command: PlayFate) -> None:
    """Play the card, then distribute the harvest it changes."""
    work.emit(FatePlayed(seat=seat, card=command.card, shift=command.shift))
    total = harvest_total(work.state, command.shift)
    assert total is not None
    harvest(work, total, good_year=command.card == "good_year", fallow=command.card == "fallow")


def check_proceed(state: LandnamState, seat: int, command: Proceed) -> None:
    """Go on without a Harvest card."""
    require_phase(state, "harvest_card")


def do_proceed(work: Work, seat: int, command: Proceed) -> None:
    """Distribute the harvest as rolled."""
    assert work.state.turn.dice is not None
    harvest(work, sum(work.state.turn.dice), good_year=False, fallow=False)


def dues(
    state: LandnamState, total: int, good_year: bool
) -> tuple[dict[tuple[int, Resource], int], list[Hex]]:
    """What each hex numbered `total` pays: 2 to a settler's owner, else 1 per house at its
    corners (a town is 2); Good year adds one to every payment. Also the hexes that pay."""
    owed: dict[tuple[int, Resource], int] = defaultdict(int)
    producing = []
    bonus = 1 if good_year else 0
    occupant = {unit.at: unit for unit in state.units.values() if unit.at is not None}
    for h, number in sorted(state.numbers.items()):
        if number != total:
            continue
        resource = PRODUCES[state.terrain[h]]
        unit = occupant.get(h)
        paid = False
        if unit is not None and unit.as_settler:
            owed[unit.owner, resource] += 2 + bonus
            paid = True
        else:
            for vertex in corners(h):
                house = state.houses.get(vertex)
                if house is not None:
                    owed[house[0], resource] += house[1] + bonus
                    paid = True
        if paid:
            producing.append(h)
    return owed, producing


def harvest(work: Work, total: int, good_year: bool, fallow: bool) -> None:
    """Pay the harvest, or famine when the stock is short; then age one producing hex."""
    state = work.state
    owed, producing = dues(state, total, good_year)
    needed = {resource: 0 for resource in RESOURCES}
    for (_, resource), count in owed.items():
        needed[resource] += count
    short = tuple(r for r in RESOURCES if needed[r] > state.stock[r])
    seat = state.turn.seat
    if short:
        returned = tuple(
            Cards(seat=s, resource=r, count=player.hand[r])
            for s, player in enumerate(state.players)
            for r in short
            if player.hand[r]
        )
        work.emit(Famine(total=total, short=short, returned=returned))
        work.emit(PhaseBegan(phase="move", seat=seat))
        return
    paid = tuple(Cards(seat=s, resource=r, count=n) for (s, r), n in sorted(owed.items()))
    work.emit(HarvestPaid(total=total, paid=paid, producing=tuple(producing)))
    if fallow or not producing:
        work.emit(PhaseBegan(phase="move", seat=seat))
    elif len(producing) == 1:
        age_hex(work, producing[0])
    else:
        work.emit(PhaseBegan(phase="aging", seat=seat))


def age_hex(work: Work, h: Hex) -> None:
    """Decision 4: age the hex that produced, then phase 2."""
    state = work.state
    old = state.numbers[h]
    work.emit(NumberAged(hex=h, old=old, new=next_number(old, state.number_stock)))
    work.emit(PhaseBegan(phase="move", seat=state.turn.seat))


def check_aging(state: LandnamState, seat: int, command: ChooseAging) -> None:
    """The hex to age is one that produced."""
    require_phase(state, "aging")
    if command.hex not in state.turn.producing:
        raise IllegalCommand(
            "landnam.aging.not_producing", "Only a hex that produced is aged.", hex=command.hex
        )


def do_aging(work: Work, seat: int, command: ChooseAging) -> None:
    """Age the chosen hex."""
    age_hex(work, command.hex)
