"""Who may sue whom at the Althing (decision 17 in this package's README), and the houses
around a hex that the case list, harvests and harbour trade look at."""

from __future__ import annotations

from contracts.games.landnam import Hex
from domain.games.landnam.board import corners
from domain.games.landnam.components import PRODUCES
from domain.games.landnam.state import Case, LandnamState


def house_owners(state: LandnamState, h: Hex) -> set[int]:
    """The seats with a farm or town at a corner of `h`."""
    owners = set()
    for vertex in corners(h):
        house = state.houses.get(vertex)
        if house is not None:
            owners.add(house[0])
    return owners


def open_cases(state: LandnamState) -> tuple[Case, ...]:
    """Every case of this Althing: another player's settler (or ship on land) on a numbered
    hex, or ship on a harbour hex, where the plaintiff has a farm or town at a corner."""
    found = []
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        if unit.at is None:
            continue
        terrain = state.terrain[unit.at]
        if unit.as_settler and terrain in PRODUCES:
            resource = PRODUCES[terrain]
        elif not unit.landed and unit.kind == "ship" and unit.at in state.harbours:
            resource = state.harbours[unit.at]
        else:
            continue
        for plaintiff in sorted(house_owners(state, unit.at) - {unit.owner}):
            found.append(Case(plaintiff, unit.id, unit.owner, resource))
    return tuple(found)
