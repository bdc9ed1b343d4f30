"""Every legal command for a seat, and a superset of them for refusal tests.

`legal_commands` must agree exactly with `decide`: a command is listed if and only if
`decide` accepts it (tests/unit/domain/looot checks both directions on random games).
"""

from __future__ import annotations

from itertools import product

from contracts.base import Command
from contracts.games.looot import (
    ClaimTrophy,
    EndTurn,
    Hex,
    LoootPlaceTile,
    LoootPlaceViking,
    TakeLongship,
)
from domain.games.looot.components import TILES, TROPHY_POINTS
from domain.games.looot.decide import may_place_second_viking
from domain.games.looot.fjord import AROUND, axes, free_spaces
from domain.games.looot.state import LoootState, step
from domain.games.looot.vikings import landing_spaces


def to_act(state: LoootState) -> list[int]:
    """The current player, or nobody once the game is over."""
    return [] if state.turn is None else [state.turn.seat]


def legal_commands(state: LoootState, seat: int) -> list[Command]:
    """Every command `seat` may send now, in a stable order."""
    turn = state.turn
    if turn is None or seat != turn.seat:
        return []
    current = step(state)
    player = state.players[seat]
    if current == "place_tiles":
        spaces = free_spaces(player)
        return [
            LoootPlaceTile(tile=tile, space=space)
            for tile in sorted(set(turn.pending))
            for space in spaces
        ]
    if current == "place_viking":
        return _viking_commands(state, seat, second_viking=False) if player.vikings_left else []
    # End of the turn: maybe a second Viking, a Longship, a Trophy; always ending the turn.
    commands: list[Command] = []
    if may_place_second_viking(state, turn):
        commands += _viking_commands(state, seat, second_viking=True)
    if not turn.longship_taken:
        spaces = free_spaces(player)
        commands += [
            TakeLongship(slot=slot, space=space)
            for slot, longship in enumerate(state.market)
            if longship is not None
            for space in spaces
        ]
    if player.trophy is None:
        have = axes(player)
        commands += [
            ClaimTrophy(axes=need)
            for need, holder in sorted(state.trophies.items())
            if holder is None and need <= have
        ]
    commands.append(EndTurn())
    return commands


def _viking_commands(state: LoootState, seat: int, *, second_viking: bool) -> list[Command]:
    shields = state.players[seat].shields
    free, shared = landing_spaces(state, seat)
    doubles = (False, True) if "double_resource" in shields else (False,)
    targets = [(space, False) for space in free]
    if "occupied_space" in shields:
        targets += [(space, True) for space in shared]
    return [
        LoootPlaceViking(
            space=space,
            second_viking=second_viking,
            occupied_space=occupied,
            double_resource=double,
        )
        for (space, occupied), double in product(targets, doubles)
    ]


def candidate_commands(state: LoootState, seat: int) -> list[Command]:
    """Plausible commands, legal or not: every shape of command over every nearby hex."""
    board = state.board
    hexes: set[Hex] = set(board.land) | set(board.ocean)
    hexes |= {(q + 1, r) for q, r in hexes}  # and a fringe of hexes off the board
    commands: list[Command] = [
        LoootPlaceViking(space=space, second_viking=a, occupied_space=b, double_resource=c)
        for space in sorted(hexes)
        for a, b, c in product((False, True), repeat=3)
    ]
    fjord = sorted(set(AROUND) | {(q, r - 1) for q, r in AROUND})
    commands += [LoootPlaceTile(tile=tile, space=space) for tile in TILES for space in fjord]
    commands += [
        TakeLongship(slot=slot, space=space)
        for slot in range(-1, len(state.market) + 1)
        for space in fjord
    ]
    commands += [
        ClaimTrophy(axes=need) for need in range(min(TROPHY_POINTS) - 1, max(TROPHY_POINTS) + 2)
    ]
    commands.append(EndTurn())
    return commands
