"""Phase 3 building (decisions 13 to 15) and the end of the turn (decision 21).

Every build is paid and recorded when declared and takes effect at the end of the turn, so
nothing built this turn can build, be built on, or be traded through; a pending build
reserves its piece, hex or vertex.
"""

from __future__ import annotations

from contracts.games.landnam import (
    AgeNumber,
    BuildDeclared,
    BuildFarm,
    BuildHarbour,
    BuildKind,
    BuildSettler,
    BuildShip,
    BuildTown,
    Cards,
    Hex,
    LandnamTurnPassed,
    PassDice,
    Resource,
    Vertex,
)
from domain.errors import IllegalCommand
from domain.games.landnam.board import ISLAND, adjacent_vertices, corners, island_neighbours
from domain.games.landnam.components import (
    AGING_COST,
    COSTS,
    HARBOUR_COST,
    HOUSES,
    PRODUCES,
    SETTLERS,
    SHIPS,
    VICTORY_POINTS,
)
from domain.games.landnam.evolve import apply_builds
from domain.games.landnam.movement import own_unit
from domain.games.landnam.requirements import require_phase
from domain.games.landnam.state import LandnamState, Unit, points
from domain.games.landnam.work import Work
from domain.kernel.seats import next_seat

TOWN_UNITS = 3  # a town may build up to three units a turn


def _require_building(state: LandnamState, seat: int) -> None:
    require_phase(state, "trade")
    if seat != state.turn.seat:
        raise IllegalCommand("landnam.build.not_active", "Only the active player may build.")


def _afford(state: LandnamState, seat: int, cost: dict[Resource, int]) -> None:
    hand = state.players[seat].hand
    if any(hand[resource] < count for resource, count in cost.items()):
        wanted = ", ".join(f"{count} {resource}" for resource, count in cost.items())
        raise IllegalCommand("landnam.build.cost", f"That costs {wanted}.")


def _cards(seat: int, cost: dict[Resource, int]) -> tuple[Cards, ...]:
    return tuple(Cards(seat=seat, resource=r, count=n) for r, n in cost.items())


def _ready_unit(state: LandnamState, seat: int, unit_id: int) -> Unit:
    unit = own_unit(state, seat, unit_id)
    if unit.id in state.turn.acted:
        raise IllegalCommand("landnam.build.acted", "That unit has built this turn already.")
    return unit


def houses_in_use(state: LandnamState, seat: int) -> int:
    """House pieces on the board or pending (a town is two)."""
    placed = sum(level for owner, level in state.houses.values() if owner == seat)
    pending = sum(1 for p in state.turn.pending if p.seat == seat and p.kind in ("farm", "town"))
    return placed + pending


def _units_in_use(state: LandnamState, seat: int, kind: str) -> int:
    placed = sum(1 for u in state.units.values() if u.owner == seat and u.kind == kind)
    pending = sum(1 for p in state.turn.pending if p.seat == seat and p.kind == kind)
    return placed + pending


def is_open_ground(state: LandnamState, cell: Hex) -> bool:
    """Sea, rim or mountain: the cells two houses may share (decision 14)."""
    if cell not in ISLAND:
        return True
    return state.terrain.get(cell) in ("sea", "mountain")


def farm_vertices(state: LandnamState) -> set[Vertex]:
    """Vertices with a farm or town, pending farms included."""
    taken = set(state.houses)
    taken.update(p.vertex for p in state.turn.pending if p.kind == "farm" and p.vertex)
    return taken


def check_farm(state: LandnamState, seat: int, command: BuildFarm) -> None:
    """A unit becomes a farm at a corner of its hex, spaced from other houses."""
    _require_building(state, seat)
    unit = _ready_unit(state, seat, command.unit)
    if unit.red:
        raise IllegalCommand("landnam.build.outlawed", "An outlawed unit cannot build a farm.")
    if unit.at is None or command.vertex not in corners(unit.at):
        raise IllegalCommand("landnam.farm.corner", "A farm goes on a corner of the unit's hex.")
    vertex = command.vertex
    if not any(state.terrain.get(c) in PRODUCES for c in vertex):
        raise IllegalCommand("landnam.farm.land", "A farm must border explored farmland.")
    taken = farm_vertices(state)
    if vertex in taken:
        raise IllegalCommand("landnam.farm.taken", "There is a house there already.")
    for other in adjacent_vertices(vertex):
        shared = [c for c in vertex if c in other]
        if other in taken and not all(is_open_ground(state, c) for c in shared):
            raise IllegalCommand("landnam.farm.too_close", "Too close to another house.")
    if houses_in_use(state, seat) >= HOUSES:
        raise IllegalCommand("landnam.build.no_houses", "You have no house left.")
    _afford(state, seat, COSTS["farm"])


def do_farm(work: Work, seat: int, command: BuildFarm) -> None:
    """Declare the farm."""
    _declare(work, seat, "farm", COSTS["farm"], unit=command.unit, vertex=command.vertex)


def _ready_house(state: LandnamState, seat: int, vertex: Vertex | None, limit_farm: int) -> int:
    house = None if vertex is None else state.houses.get(vertex)
    if house is None or house[0] != seat:
        raise IllegalCommand("landnam.build.no_house", "Name one of your farms or towns.")
    assert vertex is not None
    done = state.turn.vertex_actions.get(vertex, 0)
    if done >= (TOWN_UNITS if house[1] == 2 else limit_farm):
        raise IllegalCommand("landnam.build.acted", "That house has built all it may this turn.")
    return house[1]


def check_town(state: LandnamState, seat: int, command: BuildTown) -> None:
    """A farm bordering sea becomes a town."""
    _require_building(state, seat)
    level = _ready_house(state, seat, command.vertex, limit_farm=1)
    if level != 1:
        raise IllegalCommand("landnam.town.already", "That is a town already.")
    if not any(c not in ISLAND or state.terrain.get(c) == "sea" for c in command.vertex):
        raise IllegalCommand("landnam.town.sea", "A town must border the sea.")
    if houses_in_use(state, seat) >= HOUSES:
        raise IllegalCommand("landnam.build.no_houses", "You have no house left.")
    _afford(state, seat, COSTS["town"])


def do_town(work: Work, seat: int, command: BuildTown) -> None:
    """Declare the town."""
    _declare(work, seat, "town", COSTS["town"], vertex=command.vertex)


def _vacant(state: LandnamState, h: Hex) -> bool:
    if state.unit_at(h) is not None:
        return False
    return all(p.at != h for p in state.turn.pending if p.kind in ("settler", "ship"))


def check_settler(state: LandnamState, seat: int, command: BuildSettler) -> None:
    """A house places a settler on vacant farmland at its corner."""
    _require_building(state, seat)
    _ready_house(state, seat, command.vertex, limit_farm=1)
    at = command.at
    if at not in command.vertex or state.terrain.get(at) not in PRODUCES or not _vacant(state, at):
        raise IllegalCommand("landnam.unit.place", "A settler goes on vacant farmland there.")
    if _units_in_use(state, seat, "settler") >= SETTLERS:
        raise IllegalCommand("landnam.build.no_settlers", "You have no settler left.")
    _afford(state, seat, COSTS["settler"])


def do_settler(work: Work, seat: int, command: BuildSettler) -> None:
    """Declare the settler."""
    _declare(work, seat, "settler", COSTS["settler"], vertex=command.vertex, at=command.at)


def check_ship(state: LandnamState, seat: int, command: BuildShip) -> None:
    """A house places a ship on vacant sea at its corner; anyone builds on the outer sea."""
    _require_building(state, seat)
    if (command.vertex is None) != (command.at is None):
        raise IllegalCommand("landnam.unit.place", "Name a house and a hex, or neither.")
    if command.vertex is not None:
        _ready_house(state, seat, command.vertex, limit_farm=1)
        at = command.at
        if (
            at is None
            or at not in command.vertex
            or state.terrain.get(at) != "sea"
            or not _vacant(state, at)
        ):
            raise IllegalCommand("landnam.unit.place", "A ship goes on vacant sea there.")
    if _units_in_use(state, seat, "ship") >= SHIPS:
        raise IllegalCommand("landnam.build.no_ships", "You have no ship left.")
    _afford(state, seat, COSTS["ship"])


def do_ship(work: Work, seat: int, command: BuildShip) -> None:
    """Declare the ship."""
    _declare(work, seat, "ship", COSTS["ship"], vertex=command.vertex, at=command.at)


def harbour_site(state: LandnamState, h: Hex | None) -> bool:
    """An island sea hex bordering explored non-mountain land, with no harbour (pending too)."""
    if h is None or state.terrain.get(h) != "sea" or h in state.harbours:
        return False
    if any(p.kind == "harbour" and p.at == h for p in state.turn.pending):
        return False
    return any(state.terrain.get(n) in PRODUCES for n in island_neighbours(h))


def check_harbour(state: LandnamState, seat: int, command: BuildHarbour) -> None:
    """A ship establishes a harbour with a marker from the stock."""
    _require_building(state, seat)
    unit = _ready_unit(state, seat, command.unit)
    if unit.kind != "ship" or unit.landed or not harbour_site(state, unit.at):
        raise IllegalCommand("landnam.harbour.site", "A ship on sea by farmland, no harbour yet.")
    pending = sum(
        1 for p in state.turn.pending if p.kind == "harbour" and p.resource == command.resource
    )
    if state.harbour_stock[command.resource] - pending <= 0:
        raise IllegalCommand("landnam.harbour.stock", f"No {command.resource} marker is left.")
    _afford(state, seat, {command.resource: HARBOUR_COST})


def do_harbour(work: Work, seat: int, command: BuildHarbour) -> None:
    """Declare the harbour."""
    unit = work.state.units[command.unit]
    cost: dict[Resource, int] = {command.resource: HARBOUR_COST}
    _declare(work, seat, "harbour", cost, unit=unit.id, at=unit.at, resource=command.resource)


def check_aging(state: LandnamState, seat: int, command: AgeNumber) -> None:
    """A settler pays one card of its hex's resource to age its number."""
    _require_building(state, seat)
    unit = _ready_unit(state, seat, command.unit)
    if not unit.as_settler or unit.at is None or unit.at not in state.numbers:
        raise IllegalCommand("landnam.aging.site", "A settler on a numbered hex ages it.")
    _afford(state, seat, {PRODUCES[state.terrain[unit.at]]: AGING_COST})


def do_aging(work: Work, seat: int, command: AgeNumber) -> None:
    """Declare the aging."""
    unit = work.state.units[command.unit]
    assert unit.at is not None
    cost: dict[Resource, int] = {PRODUCES[work.state.terrain[unit.at]]: AGING_COST}
    _declare(work, seat, "aging", cost, unit=unit.id, at=unit.at)


def _declare(
    work: Work,
    seat: int,
    kind: BuildKind,
    cost: dict[Resource, int],
    unit: int | None = None,
    vertex: Vertex | None = None,
    at: Hex | None = None,
    resource: Resource | None = None,
) -> None:
    work.emit(
        BuildDeclared(
            seat=seat,
            kind=kind,
            cost=_cards(seat, cost),
            unit=unit,
            vertex=vertex,
            at=at,
            resource=resource,
        )
    )


def check_pass(state: LandnamState, seat: int, command: PassDice) -> None:
    """The turn ends in phase 3."""
    _require_building(state, seat)


def game_ends(state: LandnamState) -> bool:
    """Decision 21 (and the round limit): after this turn's builds, does the game end?"""
    after = state.copy()
    apply_builds(after)
    if any(points(after, seat) >= VICTORY_POINTS for seat in range(len(after.players))):
        return True
    return state.turns_played + 1 >= state.max_rounds * len(state.players)


def do_pass(work: Work, seat: int, command: PassDice) -> None:
    """Builds take effect; the dice pass clockwise, or the game ends."""
    following = None if game_ends(work.state) else next_seat(seat, len(work.state.players))
    work.emit(LandnamTurnPassed(seat=seat, next_seat=following))
