"""Vikings on the main board: where one may go, and the buildings it captures.

Sources: the rules summary ("Place a Viking", "Capture a Building") and the rule points of this
package's README (Rules), which override the summary.
"""

from __future__ import annotations

from itertools import combinations

from contracts.base import Event
from contracts.games.looot import CastleTaken, Hex, HouseTaken, Tile, WatchtowersLinked
from domain.games.looot.components import CASTLE_GROUP_STEP, STACK_SIZES
from domain.games.looot.state import LoootState


def anchor_spaces(state: LoootState) -> set[Hex]:
    """Land spaces next to a Viking or to a Longship: where Vikings may land.

    Decision 13 in this package's README: an ocean slot left empty (the bag ran out) is no
    Longship, so it anchors nothing.
    """
    board = state.board
    anchors: set[Hex] = set()
    for space in state.vikings:
        anchors.update(board.neighbours[space])
    for slot, longship in enumerate(state.market):
        if longship is not None:
            anchors.update(board.shore[slot])
    return anchors


def may_share(occupants: tuple[int, ...], seat: int) -> bool:
    """The occupied-space Shield needs an opponent there and none of one's own (decision 5 in
    this package's README).

    The Shield lifts only "unoccupied" (rules summary: "play your Viking on the same space as
    an opponent"); the space must still be next to another Viking or a Longship, and a space
    holds at most one Viking per player.
    """
    return bool(occupants) and seat not in occupants


def landing_spaces(state: LoootState, seat: int) -> tuple[list[Hex], list[Hex]]:
    """The resource spaces a Viking of `seat` may go to: (free ones, ones to share), sorted.

    A Viking goes only on a resource space (README, Rules: "never on building spaces"), unoccupied,
    next to any Viking or to a Longship (rules summary, "Place a Viking").
    """
    free: list[Hex] = []
    shared: list[Hex] = []
    for space in sorted(anchor_spaces(state)):
        if state.board.is_building(space):
            continue
        occupants = state.vikings.get(space, ())
        if not occupants:
            free.append(space)
        elif may_share(occupants, seat):
            shared.append(space)
    return free, shared


def group_of(state: LoootState, seat: int, start: Hex) -> set[Hex]:
    """The spaces of `seat`'s Vikings connected to `start` (counted as holding one)."""
    neighbours = state.board.neighbours
    vikings = state.vikings
    group = {start}
    frontier = [start]
    while frontier:
        space = frontier.pop()
        for near in neighbours[space]:
            if near not in group and seat in vikings.get(near, ()):
                group.add(near)
                frontier.append(near)
    return group


def capture_events(state: LoootState, seat: int, space: Hex) -> list[Event]:
    """The buildings a Viking newly placed on `space` captures, as events.

    `state` is the state before the placement. Houses come first, then Watchtowers, then
    Castles, each kind in sorted hex order; each takes from the stacks what the ones before
    it left.
    """
    stacks = dict(state.stacks)
    events: list[Event] = []
    board = state.board
    for near in sorted(board.neighbours[space]):
        if board.land[near] == "house" and stacks[near] > 0:
            stacks[near] -= 1
            events.append(HouseTaken(seat=seat, house=near))
    group = group_of(state, seat, space)
    for towers in watchtower_links(state, seat, group):
        taken = tuple(tower for tower in towers if stacks[tower] > 0)
        for tower in taken:
            stacks[tower] -= 1
        events.append(WatchtowersLinked(seat=seat, towers=towers, taken_from=taken))
    for castle, owed in castle_tiles_owed(state, seat, group).items():
        for _ in range(min(owed, stacks[castle])):
            stacks[castle] -= 1
            events.append(CastleTaken(seat=seat, castle=castle, group_size=len(group)))
    return events


def _buildings_touching(state: LoootState, group: set[Hex], kind: str) -> list[Hex]:
    board = state.board
    return sorted({n for space in group for n in board.neighbours[space] if board.land[n] == kind})


def watchtower_links(state: LoootState, seat: int, group: set[Hex]) -> list[tuple[Hex, Hex]]:
    """The Watchtower pairs the group links that `seat` was never paid for (decision 9 in this
    package's README).

    README, Rules: "linking a new pair of towers by a route of the player's own Vikings takes one
    tile from each of the two towers (2 tiles); each pair pays once". The pairs are counted
    per player; a pair pays what its two stacks still hold, and is paid even when they are
    empty. A single Viking touching both towers is a route.
    """
    towers = _buildings_touching(state, group, "watchtower")
    paid = state.players[seat].linked_towers
    return [pair for pair in combinations(towers, 2) if pair not in paid]


def castle_tiles_owed(state: LoootState, seat: int, group: set[Hex]) -> dict[Hex, int]:
    """Per Castle the group touches, the tiles it owes `seat` now (decision 10 in this package's
    README).

    README, Rules: "a group of the player's own Vikings touching the castle of size >= 4 / 8 / 12
    takes the 1st / 2nd / 3rd tile". Counted per player and Castle: a group of size n earns
    min(n // 4, 3) tiles in all from that Castle, less those the player already took there
    (so a second, separate group of 4 earns nothing more); the stack limits what is paid.
    """
    earned = min(len(group) // CASTLE_GROUP_STEP, STACK_SIZES["castle"])
    taken = state.players[seat].castle_tiles
    owed: dict[Hex, int] = {}
    for castle in _buildings_touching(state, group, "castle"):
        due = earned - taken.get(castle, 0)
        if due > 0:
            owed[castle] = due
    return owed


def captured_tiles(event: Event) -> tuple[Tile, ...]:
    """The building tiles a capture event hands to the player (none for other events)."""
    tile: Tile
    match event:
        case HouseTaken():
            tile, count = "house", 1
        case WatchtowersLinked(taken_from=taken):
            tile, count = "watchtower", len(taken)
        case CastleTaken():
            tile, count = "castle", 1
        case _:
            return ()
    return (tile,) * count
