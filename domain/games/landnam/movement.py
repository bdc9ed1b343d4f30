"""Phase 2: steps, exploration, chasing and flight (decisions 3, 5 to 9).

A step enters an adjacent hex, explores an unexplored one, or chases its occupant. The active
player has two normal steps for any of their units, then the extra steps of Fair going cards.
"""

from __future__ import annotations

from contracts.games.landnam import (
    Chased,
    EndMovement,
    Explored,
    FateKind,
    FatePlayed,
    Flee,
    Hex,
    Moved,
    PhaseBegan,
    PlayFate,
    RedTokensDiscarded,
    Step,
    StepSpent,
    Terrain,
    UnitFled,
    UnitRemoved,
)
from domain.errors import IllegalCommand
from domain.games.landnam.board import EDGE_HEXES, edge_lines, is_corner, island_neighbours
from domain.games.landnam.cases import house_owners
from domain.games.landnam.components import (
    EXPLORATION_CARDS,
    EXTRA_STEPS,
    FIND,
    NUMBERED,
    PRODUCES,
    TERRAINS,
    exploration_terrain,
    next_number,
    red_die_number,
)
from domain.games.landnam.requirements import require_card, require_phase
from domain.games.landnam.state import FIRST_MOVE_TAKES_CARDS, LandnamState, Unit, rules_at_least
from domain.games.landnam.work import Work

NORMAL_STEPS = 2


def may_enter(unit: Unit, terrain: Terrain | None, landing: bool) -> bool:
    """Whether `unit` may enter a vacant hex of `terrain` (None: the outer sea).

    Ships (on land too, decision 8) enter sea, or with Landing non-mountain land; settlers enter
    non-mountain land, and a mountain when outlawed or with Landing (decision 6).
    """
    if unit.kind == "ship":
        if terrain is None or terrain == "sea":
            return True
        return landing and terrain != "mountain"
    if terrain is None or terrain == "sea":
        return False
    return terrain != "mountain" or bool(unit.red) or landing


def reachable(unit: Unit) -> list[Hex | None]:
    """The hexes one step away: island neighbours, and the outer sea for a ship on an edge."""
    targets: list[Hex | None] = list(island_neighbours(unit.at))
    if unit.kind == "ship" and unit.at in EDGE_HEXES:
        targets.append(None)
    return targets


def first_move_pending(state: LandnamState, seat: int) -> bool:
    """Decision 7: the player's first phase 2 must begin with the first move."""
    return not state.players[seat].started


def step_is_extra(state: LandnamState, unit_id: int) -> bool:
    """Whether the unit's next step is an extra one; refuses when it has none left."""
    turn = state.turn
    if turn.steps_used < NORMAL_STEPS:
        return False
    if turn.extra.get(unit_id, 0) > 0:
        return True
    raise IllegalCommand("landnam.move.no_steps", "No steps are left for that unit.")


def own_unit(state: LandnamState, seat: int, unit_id: int | None) -> Unit:
    """The seat's unit in play, or a refusal."""
    unit = None if unit_id is None else state.units.get(unit_id)
    if unit is None or unit.owner != seat:
        raise IllegalCommand("landnam.unit.not_yours", "Name one of your units in play.")
    return unit


def check_step(state: LandnamState, seat: int, command: Step) -> None:
    """Refuse a step the movement rules do not allow."""
    require_phase(state, "move")
    unit = own_unit(state, seat, command.unit)
    step_is_extra(state, unit.id)
    if command.to not in reachable(unit):
        raise IllegalCommand("landnam.move.not_adjacent", "That hex is not one step away.")
    if command.fate is not None:
        require_card(state, seat, PlayFate(card=command.fate))
    first = first_move_pending(state, seat)
    if first:
        _check_first_move(state, unit, command.to)
    if command.to is not None and command.to not in state.terrain:
        if command.fate is not None and command.fate not in EXPLORATION_CARDS | {"landing"}:
            raise IllegalCommand("landnam.fate.wrong_phase", "Only Exploration or Landing here.")
        if command.fate in FIND and state.terrain_stock[FIND[command.fate]] == 0:
            raise IllegalCommand("landnam.fate.stack_empty", "No hex of that terrain is left.")
        return
    if command.fate in EXPLORATION_CARDS:
        raise IllegalCommand("landnam.fate.explore_only", "Exploration cards go with exploring.")
    terrain = None if command.to is None else state.terrain[command.to]
    occupant = state.unit_at(command.to)
    if first and _first_move_spent(state, unit, occupant, terrain, command.fate):
        return  # decision 7: the step is spent even if the ship cannot enter
    if occupant is not None:
        _check_chase(unit, occupant, terrain, command.fate)
        return
    if command.fate == "chase":
        raise IllegalCommand("landnam.fate.no_chase", "There is nobody to chase there.")
    if may_enter(unit, terrain, False):
        if command.fate is not None:
            raise IllegalCommand("landnam.fate.useless", "That step needs no card.")
        return
    if command.fate == "landing" and may_enter(unit, terrain, True):
        return
    raise IllegalCommand("landnam.move.cannot_enter", f"That unit cannot enter {terrain}.")


def _enters(
    unit: Unit, occupant: Unit | None, terrain: Terrain | None, fate: FateKind | None
) -> bool:
    """Whether a step into an explored hex gets in: a move, or a chase (decision 9)."""
    if occupant is None:
        return may_enter(unit, terrain, fate == "landing")
    chases = fate == "chase" or unit.owner in occupant.red
    return chases and occupant.owner != unit.owner and may_enter(unit, terrain, False)


def _first_move_spent(
    state: LandnamState,
    unit: Unit,
    occupant: Unit | None,
    terrain: Terrain | None,
    fate: FateKind | None,
) -> bool:
    """Whether a first move into an explored hex only spends the step (decision 7)."""
    if rules_at_least(state, FIRST_MOVE_TAKES_CARDS):
        # Decision 27: a first move takes a card as any step does.
        return fate is None and not _enters(unit, occupant, terrain, None)
    # Revision 1: a first move never got past an occupant or a closed hex, and no card helped.
    if occupant is None and may_enter(unit, terrain, False):
        return False
    if fate is not None:
        raise IllegalCommand("landnam.fate.useless", "No card helps that first move.")
    return True


def _blocked(
    state: LandnamState,
    seat: int,
    unit: Unit,
    occupant: Unit | None,
    terrain: Terrain | None,
    fate: FateKind | None,
) -> bool:
    """Whether a checked step into an explored hex is spent without getting in (decision 7:
    only a first move can be)."""
    if rules_at_least(state, FIRST_MOVE_TAKES_CARDS):
        return not _enters(unit, occupant, terrain, fate)
    # Revision 1: a first move was spent on any occupant; a later step onto one chased it.
    if occupant is not None:
        return first_move_pending(state, seat)
    return not may_enter(unit, terrain, fate == "landing")


def _check_first_move(state: LandnamState, unit: Unit, to: Hex | None) -> None:
    if (
        unit.at is not None
        or unit.kind != "ship"
        or to is None
        or is_corner(to)
        or edge_lines(to)[0] in state.claimed_edges
    ):
        raise IllegalCommand(
            "landnam.move.first_move",
            "The first move takes your ship from the outer sea to a non-corner hex of an edge "
            "no one has entered yet.",
        )


def _check_chase(
    unit: Unit, occupant: Unit, terrain: Terrain | None, fate: FateKind | None
) -> None:
    """Decision 9: chase an outlaw of your colour, or with Chase another player's unit."""
    if occupant.owner == unit.owner or not may_enter(unit, terrain, False):
        raise IllegalCommand("landnam.move.occupied", "That hex is occupied.")
    if unit.owner in occupant.red:
        if fate is not None:
            raise IllegalCommand("landnam.fate.useless", "That chase needs no card.")
        return
    if fate != "chase":
        raise IllegalCommand("landnam.move.occupied", "Only a Chase card lets you chase it.")


def do_step(work: Work, seat: int, command: Step) -> None:
    """Move, explore or chase."""
    state = work.state
    unit = state.units[command.unit]
    extra = step_is_extra(state, unit.id)
    if command.fate is not None:
        work.emit(FatePlayed(seat=seat, card=command.fate, unit=unit.id))
    landing = command.fate == "landing"
    to = command.to
    if to is not None and to not in state.terrain:
        explore(work, unit.id, to, command.fate if command.fate in FIND else None)
        _enter_or_stay(work, unit.id, to, landing, extra)
        return
    occupant = state.unit_at(to)
    terrain = None if to is None else state.terrain[to]
    if to is not None and _blocked(state, seat, unit, occupant, terrain, command.fate):
        work.emit(StepSpent(unit=unit.id, to=to, extra=extra))  # only a first move (decision 7)
        return
    if to is not None and occupant is not None:
        chase(work, unit.id, occupant.id, to, extra)
        return
    work.emit(Moved(unit=unit.id, to=to, extra=extra))
    if to is None:
        end_movement(work)


def _enter_or_stay(work: Work, unit_id: int, to: Hex, landing: bool, extra: bool) -> None:
    unit = work.state.units[unit_id]
    if may_enter(unit, work.state.terrain[to], landing):
        work.emit(Moved(unit=unit_id, to=to, extra=extra))
    else:
        work.emit(StepSpent(unit=unit_id, to=to, extra=extra))


def exploration_modifier(state: LandnamState, h: Hex) -> int:
    """+2 per adjacent mountain, +1 per other adjacent land hex, at most +4."""
    bonus = 0
    for n in island_neighbours(h):
        terrain = state.terrain.get(n)
        if terrain == "mountain":
            bonus += 2
        elif terrain is not None and terrain != "sea":
            bonus += 1
    return min(bonus, 4)


def explore(work: Work, unit_id: int, h: Hex, found: FateKind | None) -> None:
    """Decision 3: roll (or take the Exploration card's terrain), number, reward."""
    state = work.state
    modifier = exploration_modifier(state, h)
    first_draw = state.draws
    index = first_draw
    greens: list[int] = []
    stock = state.terrain_stock
    if found is not None:
        terrain = FIND[found]
    else:
        reachable_terrains = {exploration_terrain(face + modifier) for face in range(1, 11)}
        if not any(stock[t] for t in reachable_terrains):
            terrain = "sea" if stock["sea"] else next(t for t in TERRAINS if stock[t])
        else:
            while True:
                greens.append(work.roll(10, index))
                index += 1
                terrain = exploration_terrain(greens[-1] + modifier)
                if stock[terrain]:
                    break
    red = number = None
    if terrain in NUMBERED:
        red = work.roll(10, index)
        number = red_die_number(red)
        if not state.number_stock[number]:
            number = next_number(number, state.number_stock)
    rewarded = None
    if terrain in NUMBERED and state.stock[PRODUCES[terrain]] > 0:
        rewarded = PRODUCES[terrain]
    work.emit(
        Explored(
            unit=unit_id,
            hex=h,
            modifier=modifier,
            greens=tuple(greens),
            red=red,
            terrain=terrain,
            number=number,
            draw=first_draw,
            rewarded=rewarded,
        )
    )
    if terrain == "mountain" or (terrain in NUMBERED and rewarded is None):
        work.draw_fate(state.units[unit_id].owner)


def flee_options(
    state: LandnamState, victim: Unit, hex_: Hex, origin: Hex | None
) -> list[Hex | None]:
    """Decision 9: one normal step away, vacant and explored, never the chaser's origin."""
    options: list[Hex | None] = []
    for to in reachable(victim):
        if to == origin or (to is not None and (to not in state.terrain or to == hex_)):
            continue
        if state.unit_at(to) is not None:
            continue
        if may_enter(victim, None if to is None else state.terrain[to], False):
            options.append(to)
    return options


def chase(work: Work, unit_id: int, victim_id: int, h: Hex, extra: bool) -> None:
    """The chaser steps in; the victim flees (its owner picks when there is a choice)."""
    state = work.state
    origin = state.units[unit_id].at
    victim = state.units[victim_id]
    options = flee_options(state, victim, h, origin)
    work.emit(Chased(unit=unit_id, victim=victim_id, hex=h, extra=extra))
    if not options:
        work.emit(UnitRemoved(unit=victim_id, awarded=tuple(victim.red)))
        work.emit(Moved(unit=unit_id, to=h))
    elif len(options) == 1:
        flee(work, options[0])


def flee(work: Work, to: Hex | None) -> None:
    """The victim leaves, its tokens follow or drop, and the chaser enters."""
    chase_ = work.state.turn.chase
    assert chase_ is not None
    chaser, victim, h, _ = chase_
    work.emit(UnitFled(unit=victim, to=to))
    settle_tokens(work, victim)
    work.emit(Moved(unit=chaser, to=h))


def check_flee(state: LandnamState, seat: int, command: Flee) -> None:
    """The escape must be one of the flight options."""
    require_phase(state, "flee")
    chase_ = state.turn.chase
    assert chase_ is not None
    _, victim, h, origin = chase_
    if command.to not in flee_options(state, state.units[victim], h, origin):
        raise IllegalCommand("landnam.flee.blocked", "The unit cannot flee there.")


def do_flee(work: Work, seat: int, command: Flee) -> None:
    """Flee."""
    flee(work, command.to)


def settle_tokens(work: Work, unit_id: int) -> None:
    """Decision 9: a red token stays only beside a house of its colour; none on a mountain."""
    unit = work.state.units.get(unit_id)
    if unit is None or not unit.red:
        return
    owners: set[int] = set()
    if unit.at is not None and work.state.terrain[unit.at] != "mountain":
        owners = house_owners(work.state, unit.at)
    dropped = tuple(colour for colour in unit.red if colour not in owners)
    if dropped:
        work.emit(RedTokensDiscarded(unit=unit_id, colours=dropped))


def end_movement(work: Work) -> None:
    """The end of phase 2: outlaws that moved settle their tokens; then phase 3."""
    for unit_id in sorted(work.state.turn.moved):
        settle_tokens(work, unit_id)
    work.emit(PhaseBegan(phase="trade", seat=work.state.turn.seat))


def check_end_movement(state: LandnamState, seat: int, command: EndMovement) -> None:
    """Phase 2 may end at any time after the first move."""
    require_phase(state, "move")
    if first_move_pending(state, seat):
        raise IllegalCommand("landnam.move.first_move", "Make your first move first.")


def do_end_movement(work: Work, seat: int, command: EndMovement) -> None:
    """End phase 2."""
    end_movement(work)


def check_extra_steps(state: LandnamState, seat: int, command: PlayFate) -> None:
    """Fair going gives one of your units more steps this phase."""
    require_phase(state, "move")
    if command.card not in EXTRA_STEPS:
        raise IllegalCommand("landnam.fate.wrong_phase", f"{command.card} cannot be played now.")
    require_card(state, seat, command)
    own_unit(state, seat, command.unit)
    if command.shift:
        raise IllegalCommand("landnam.fate.shift", "Only Shift changes a result.")


def do_extra_steps(work: Work, seat: int, command: PlayFate) -> None:
    """Play the card."""
    work.emit(FatePlayed(seat=seat, card=command.card, unit=command.unit))
