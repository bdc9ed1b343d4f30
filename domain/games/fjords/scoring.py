"""Final scoring: a point per viking placed, the undisputed-tiles bonus, and the tie-break.

Rule book, "Winning the game": players earn 1 point for every viking they placed. A player who
placed all their vikings scores 1 point per vacant tile they could have legally claimed with
more vikings, if no opponent could reach it (blocked by ocean, mountains, vikings and/or
longhouses); decision 7 fixes how "could have claimed" and "could reach" are read. Ties: the
tied player who went later in turn order at the beginning of the Settlement Phase wins
(decision 8).
"""

from __future__ import annotations

from contracts.outcome import Outcome, PlayerScore
from domain.games.fjords.settlement import is_vacant, plains_neighbours
from domain.games.fjords.state import FjordsState
from domain.hexgrid import Hex


def reachable_vacant_tiles(state: FjordsState, seat: int) -> set[Hex]:
    """Vacant tiles `seat` could claim one after another with unlimited vikings (decision 7).

    From the seat's pieces, through vacant tiles connected by plains; any piece blocks.
    """
    stack = [position for position, piece in state.pieces.items() if piece.seat == seat]
    reached: set[Hex] = set()
    while stack:
        for neighbour in plains_neighbours(state, stack.pop()):
            if neighbour not in reached and is_vacant(state, neighbour):
                reached.add(neighbour)
                stack.append(neighbour)
    return reached


def undisputed_tiles(state: FjordsState, seat: int) -> int:
    """The bonus: tiles only `seat` could reach, if it placed all its vikings (decision 7).

    Opponents count whatever their supply: a tile they could reach is disputed.
    """
    if state.vikings_left(seat) > 0:
        return 0
    mine = reachable_vacant_tiles(state, seat)
    for other in range(state.players):
        if other != seat and mine:
            mine -= reachable_vacant_tiles(state, other)
    return len(mine)


def settlement_order(state: FjordsState) -> list[int]:
    """Seats in turn order at the beginning of the Settlement Phase."""
    starter = state.settlement_starter if state.settlement_starter is not None else 0
    return [(starter + step) % state.players for step in range(state.players)]


def outcome(state: FjordsState) -> Outcome | None:
    """Scores with their breakdown and ranks once the game has ended, else None."""
    if state.phase != "ended":
        return None
    vikings = [0] * state.players
    for piece in state.pieces.values():
        if piece.kind == "viking":
            vikings[piece.seat] += 1
    breakdowns = [
        {"vikings": vikings[seat], "undisputed_tiles": undisputed_tiles(state, seat)}
        for seat in range(state.players)
    ]
    totals = [sum(b.values()) for b in breakdowns]
    best = max(totals)
    tied = [seat for seat in settlement_order(state) if totals[seat] == best]
    winner = tied[-1]  # decision 8: the latest in Settlement turn order among the tied
    tie_break = ""
    if len(tied) > 1:
        tie_break = (
            f"Seats {', '.join(map(str, sorted(tied)))} tied on {best} points; seat {winner} "
            "wins because it went later in turn order at the beginning of the Settlement "
            "Phase (rule book, Winning the game; decision 8)."
        )
    scores = [
        PlayerScore(
            seat=seat,
            total=totals[seat],
            breakdown=breakdowns[seat],
            rank=_rank(seat, totals, winner),
        )
        for seat in range(state.players)
    ]
    return Outcome(scores=scores, winners=[winner], tie_break=tie_break)


def _rank(seat: int, totals: list[int], winner: int) -> int:
    """Competition ranking; the rule book breaks ties for the win only, lower ties share."""
    higher = sum(1 for total in totals if total > totals[seat])
    beaten_on_tie_break = seat != winner and totals[seat] == totals[winner]
    return 1 + higher + beaten_on_tie_break
