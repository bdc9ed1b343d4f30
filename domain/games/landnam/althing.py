"""The Althing on a 7 (decisions 17 to 20): fate draws, windows for Althing cards, outlaws
removed, the case round, suits with aid, and black tokens."""

from __future__ import annotations

from contracts.games.landnam import (
    AddCards,
    AidAnswered,
    AidAsked,
    AlthingClosed,
    AppointStarter,
    AskAid,
    CardsAdded,
    CasesEnded,
    CaseTried,
    EndCases,
    FatePlayed,
    JoinSide,
    OutlawsRemoved,
    PassWindow,
    PhaseBegan,
    PlayFate,
    RefuseAid,
    StandBy,
    StarterAppointed,
    StoodBy,
    SuitDecided,
    SuitYielded,
    TryCase,
    WindowPassed,
    YieldSuit,
)
from domain.errors import IllegalCommand
from domain.games.landnam.cases import open_cases
from domain.games.landnam.components import ALTHING_CARDS
from domain.games.landnam.requirements import require_card, require_phase
from domain.games.landnam.state import Althing, Case, LandnamState, Suit
from domain.games.landnam.work import Work
from domain.kernel.seats import seats_from


def _althing(state: LandnamState) -> Althing:
    althing = state.turn.althing
    assert althing is not None
    return althing


def _suit(state: LandnamState) -> Suit:
    suit = _althing(state).suit
    assert suit is not None
    return suit


def open_althing(work: Work) -> None:
    """Step 1: the active player and every player without fate cards draw one; then step 2."""
    state = work.state
    active = state.turn.seat
    order = seats_from(active, len(state.players))
    drawing = [seat for seat in order if seat == active or not state.players[seat].fate]
    for seat in drawing:
        work.draw_fate(seat)
    open_window(work)


def window_waits_for(state: LandnamState) -> list[int]:
    """Decision 20: every fate-card holder that has not passed."""
    passed = _althing(state).passed
    return [seat for seat in state.fate_holders() if seat not in passed]


def open_window(work: Work) -> None:
    """Open a window for Althing cards when someone holds a fate card; else go straight on."""
    if work.state.fate_holders():
        work.emit(PhaseBegan(phase="window", seat=work.state.fate_holders()[0]))
    else:
        close_window(work)


def close_window(work: Work) -> None:
    """The start window leads to step 2's removals; a verdict window to the verdict."""
    althing = _althing(work.state)
    if althing.starter is None:
        after_start_window(work)
    else:
        decide_suit(work)


def after_start_window(work: Work) -> None:
    """Outlaws leave play (tokens awarded); then the starter is appointed (or, dissolved, the
    Althing closes)."""
    state = work.state
    outlaws = tuple(sorted(uid for uid, unit in state.units.items() if unit.red))
    if outlaws:
        work.emit(OutlawsRemoved(units=outlaws))
    if _althing(state).dissolved:
        close_althing(work)
    else:
        work.emit(PhaseBegan(phase="appoint", seat=state.turn.seat))


def check_pass_window(state: LandnamState, seat: int, command: PassWindow) -> None:
    """Only a seat the window waits for passes."""
    require_phase(state, "window")
    if seat not in window_waits_for(state):
        raise IllegalCommand("landnam.window.not_asked", "The window does not wait for you.")


def do_pass_window(work: Work, seat: int, command: PassWindow) -> None:
    """Pass; the window closes when all have passed."""
    work.emit(WindowPassed(seat=seat))
    if not window_waits_for(work.state):
        close_window(work)


def check_althing_card(state: LandnamState, seat: int, command: PlayFate) -> None:
    """Pardon (a unit with red tokens), Adjourn (a suit's verdict), Dissolve, in a window."""
    require_phase(state, "window")
    if command.card not in ALTHING_CARDS:
        raise IllegalCommand("landnam.fate.wrong_phase", f"{command.card} cannot be played now.")
    require_card(state, seat, command)
    if command.shift:
        raise IllegalCommand("landnam.fate.shift", "Only Shift changes a result.")
    if command.card == "pardon":
        unit = None if command.unit is None else state.units.get(command.unit)
        if unit is None or not unit.red:
            raise IllegalCommand("landnam.fate.pardon", "Pardon a unit with red tokens.")
    elif command.unit is not None:
        raise IllegalCommand("landnam.fate.no_unit", f"{command.card} names no unit.")
    if command.card == "adjourn" and _althing(state).starter is None:
        raise IllegalCommand("landnam.fate.adjourn", "There is no suit to adjourn.")


def do_althing_card(work: Work, seat: int, command: PlayFate) -> None:
    """Play it; Adjourn and Dissolve end the window at once."""
    work.emit(FatePlayed(seat=seat, card=command.card, unit=command.unit))
    althing = _althing(work.state)
    if command.card == "pardon":
        if not window_waits_for(work.state):
            close_window(work)
        return
    if althing.starter is None:  # Dissolve in the start window
        after_start_window(work)
        return
    work.emit(SuitDecided(white=None, outlawed=None, colour=None, interrupted=True))
    if command.card == "dissolve":
        close_althing(work)
    else:
        next_pleader(work)


def check_appoint(state: LandnamState, seat: int, command: AppointStarter) -> None:
    """The active player names any seat."""
    require_phase(state, "appoint")
    if not 0 <= command.seat < len(state.players):
        raise IllegalCommand("landnam.althing.seat", "Name a seat at the table.")


def do_appoint(work: Work, seat: int, command: AppointStarter) -> None:
    """Fix the case list; the round starts."""
    cases = open_cases(work.state)
    counts = tuple(
        sum(1 for case in cases if case.defendant == s) for s in range(len(work.state.players))
    )
    work.emit(StarterAppointed(seat=command.seat, cases=counts))
    next_pleader(work)


def remaining_cases(state: LandnamState, seat: int) -> list[Case]:
    """The seat's cases not tried yet in this Althing."""
    althing = _althing(state)
    return [
        case
        for case in althing.cases
        if case.plaintiff == seat
        and (seat, case.unit) not in althing.tried
        and case.unit in state.units
    ]


def next_pleader(work: Work) -> None:
    """Clockwise from the starter, the first seat not done that has a case; else the end."""
    state = work.state
    althing = _althing(state)
    assert althing.starter is not None
    for seat in seats_from(althing.starter, len(state.players)):
        if seat not in althing.done and remaining_cases(state, seat):
            work.emit(PhaseBegan(phase="cases", seat=seat))
            return
    close_althing(work)


def close_althing(work: Work) -> None:
    """Decision 19: black tokens (none if dissolved); then phase 2."""
    state = work.state
    althing = _althing(state)
    black: list[int] = []
    if not althing.dissolved:
        for seat in range(len(state.players)):
            against = [case for case in althing.cases if case.defendant == seat]
            tried = any((case.plaintiff, case.unit) in althing.tried for case in against)
            if len(against) >= 3 and not tried:
                black.append(seat)
    work.emit(AlthingClosed(black=tuple(black), dissolved=althing.dissolved))
    work.emit(PhaseBegan(phase="move", seat=state.turn.seat))


def check_try_case(state: LandnamState, seat: int, command: TryCase) -> None:
    """One of the seat's open cases, with 1 or more cards of its resource."""
    require_phase(state, "cases")
    if _althing(state).pleading != seat:
        raise IllegalCommand("landnam.althing.not_pleading", "It is not your turn to sue.")
    case = next((c for c in remaining_cases(state, seat) if c.unit == command.unit), None)
    if case is None:
        raise IllegalCommand("landnam.case.none", "You have no open case against that unit.")
    if not 1 <= command.cards <= state.players[seat].hand[case.resource]:
        raise IllegalCommand("landnam.case.cards", f"Play 1 or more {case.resource} you hold.")


def do_try_case(work: Work, seat: int, command: TryCase) -> None:
    """The suit opens; the defence answers."""
    case = next(c for c in remaining_cases(work.state, seat) if c.unit == command.unit)
    work.emit(CaseTried(seat=seat, unit=case.unit, resource=case.resource, cards=command.cards))


def check_end_cases(state: LandnamState, seat: int, command: EndCases) -> None:
    """The pleading seat stops suing."""
    require_phase(state, "cases")
    if _althing(state).pleading != seat:
        raise IllegalCommand("landnam.althing.not_pleading", "It is not your turn to sue.")


def do_end_cases(work: Work, seat: int, command: EndCases) -> None:
    """The next seat pleads."""
    work.emit(CasesEnded(seat=seat))
    next_pleader(work)


def suit_waits_for(state: LandnamState) -> list[int]:
    """Decision 23: the acting side's leader, and its other members that have not stood by.

    Members are asked whatever their cards (as a window asks every fate-card holder), so who
    is asked reveals nothing about a hand."""
    suit = _suit(state)
    side = suit.sides[suit.acting]
    leader = side[-1]
    return sorted(seat for seat in side if seat == leader or seat not in suit.standing_by)


def _acting_member(state: LandnamState, seat: int, leader: bool) -> Suit:
    require_phase(state, "suit")
    suit = _suit(state)
    side = suit.sides[suit.acting]
    if seat not in side or (leader and side[-1] != seat):
        who = "the leader of the side to act" if leader else "the side to act"
        raise IllegalCommand("landnam.suit.not_acting", f"Only {who} may do that.")
    return suit


def check_add_cards(state: LandnamState, seat: int, command: AddCards) -> None:
    """A member of the acting side adds cards it holds."""
    suit = _acting_member(state, seat, leader=False)
    if not 1 <= command.cards <= state.players[seat].hand[suit.resource]:
        raise IllegalCommand("landnam.suit.cards", f"Add 1 or more {suit.resource} you hold.")


def do_add_cards(work: Work, seat: int, command: AddCards) -> None:
    """Add them."""
    work.emit(CardsAdded(seat=seat, cards=command.cards))


def check_stand_by(state: LandnamState, seat: int, command: StandBy) -> None:
    """A member of the acting side other than its leader may add nothing for now."""
    suit = _acting_member(state, seat, leader=False)
    if suit.sides[suit.acting][-1] == seat:
        raise IllegalCommand("landnam.suit.leader", "The leader adds cards, asks aid or yields.")
    if seat in suit.standing_by:
        raise IllegalCommand("landnam.suit.stood_by", "You stood by already.")


def do_stand_by(work: Work, seat: int, command: StandBy) -> None:
    """Stand by until the side is to act again."""
    work.emit(StoodBy(seat=seat))


def check_ask_aid(state: LandnamState, seat: int, command: AskAid) -> None:
    """The leader asks a seat on neither side, not asked yet in this suit."""
    suit = _acting_member(state, seat, leader=True)
    asked = command.seat
    if (
        not 0 <= asked < len(state.players)
        or asked in suit.sides[0]
        or asked in suit.sides[1]
        or asked in suit.asked_before
    ):
        raise IllegalCommand("landnam.suit.aid", "Ask a player not involved and not yet asked.")


def do_ask_aid(work: Work, seat: int, command: AskAid) -> None:
    """The asked seat answers next."""
    work.emit(AidAsked(seat=seat, asked=command.seat))


def check_join(state: LandnamState, seat: int, command: JoinSide) -> None:
    """The asked seat joins with 1 or more cards."""
    require_phase(state, "aid")
    suit = _suit(state)
    if suit.asked != seat:
        raise IllegalCommand("landnam.suit.not_asked", "Nobody asked you.")
    if not 1 <= command.cards <= state.players[seat].hand[suit.resource]:
        raise IllegalCommand("landnam.suit.cards", f"Join with 1 or more {suit.resource}.")


def do_join(work: Work, seat: int, command: JoinSide) -> None:
    """Join and lead the side."""
    work.emit(AidAnswered(seat=seat, cards=command.cards))


def check_refuse(state: LandnamState, seat: int, command: RefuseAid) -> None:
    """The asked seat may stay out."""
    require_phase(state, "aid")
    if _suit(state).asked != seat:
        raise IllegalCommand("landnam.suit.not_asked", "Nobody asked you.")


def do_refuse(work: Work, seat: int, command: RefuseAid) -> None:
    """Stay out."""
    work.emit(AidAnswered(seat=seat, cards=0))


def check_yield(state: LandnamState, seat: int, command: YieldSuit) -> None:
    """Only the acting side's leader yields."""
    _acting_member(state, seat, leader=True)


def do_yield(work: Work, seat: int, command: YieldSuit) -> None:
    """Yield; a window for Althing cards, then the verdict."""
    work.emit(SuitYielded(seat=seat))
    open_window(work)


def decide_suit(work: Work) -> None:
    """Decision 18: the other side's leader takes the white token; a losing defence's unit is
    outlawed in the plaintiff's colour. Then the round goes on."""
    suit = _suit(work.state)
    winner = 1 - suit.acting
    plaintiff = suit.sides[0][0]
    outlawed = suit.unit if winner == 0 else None
    work.emit(
        SuitDecided(
            white=suit.sides[winner][-1],
            outlawed=outlawed,
            colour=plaintiff if outlawed is not None else None,
        )
    )
    next_pleader(work)
