"""Final scoring: a point per viking placed, the undisputed-tiles bonus, rune stones' points,
the tie-break, and a Classic match's combined score.

Rule book, "Winning the game": players earn 1 point for every viking they placed. A player who
placed all their vikings scores 1 point per vacant tile they could have legally claimed with more
vikings, if no opponent could reach it (blocked by ocean, mountains, vikings and/or longhouses);
decision 7 in this package's README fixes how "could have claimed" and "could reach" are read, and
rune stones block tiles like pieces (decision 6 in this package's README). Rune stones add their
points (`runes.rune_points`), each rune under its own name in the breakdown. Ties: the tied player
who went later in turn order at the beginning of the Settlement Phase wins (decision 8 in this
package's README).

Classic match ("Play the game three times, combining your scores across the three games"): the
breakdown lists each game's points per rule (`game_1_vikings`, ...). The rule book has no tie-break
for a match; this engine applies decision 8 in this package's README to the final game, the one
whose turn order is freshest, so a match always has one winner like a single game.
"""

from __future__ import annotations

from contracts.outcome import Outcome, PlayerScore
from domain.games.fjords.runes import rune_points
from domain.games.fjords.state import FjordsState
from domain.games.fjords.targets import plains_neighbours
from domain.games.fjords.variants import MATCH_GAMES
from domain.hexgrid import Hex
from domain.kernel.seats import seats_from


def reachable_vacant_tiles(state: FjordsState, seat: int) -> set[Hex]:
    """Vacant tiles `seat` could claim one after another with unlimited vikings (decision 7 in this
    package's README).

    From the seat's pieces, through vacant tiles connected by plains; any piece or rune stone
    blocks.
    """
    stack = [position for position, piece in state.pieces.items() if piece.seat == seat]
    reached: set[Hex] = set()
    while stack:
        for neighbour in plains_neighbours(state, stack.pop()):
            if neighbour not in reached and state.is_vacant(neighbour):
                reached.add(neighbour)
                stack.append(neighbour)
    return reached


def undisputed_tiles(state: FjordsState, seat: int) -> int:
    """The bonus: tiles only `seat` could reach, if it placed all its vikings (decision 7 in this
    package's README).

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
    return seats_from(starter, state.players)


def breakdowns(state: FjordsState) -> list[dict[str, int]]:
    """Each seat's points per rule in one game: vikings, undisputed tiles, then each rune's."""
    vikings = [0] * state.players
    for piece in state.pieces.values():
        if piece.kind == "viking":
            vikings[piece.seat] += 1
    return [
        {
            "vikings": vikings[seat],
            "undisputed_tiles": undisputed_tiles(state, seat),
            **rune_points(state, seat),
        }
        for seat in range(state.players)
    ]


def outcome(state: FjordsState) -> Outcome | None:
    """Scores with their breakdown and ranks once the game (or Classic match) is over."""
    if state.phase != "ended":
        return None
    if state.variant == "classic":
        return match_outcome(state) if state.match_game >= MATCH_GAMES else None
    return ranked(state, breakdowns(state))


def match_results(state: FjordsState) -> list[Outcome]:
    """Each finished game of a Classic match scored on its own (for views)."""
    finished = [*state.earlier_games, *([state] if state.phase == "ended" else [])]
    return [ranked(game, breakdowns(game)) for game in finished]


def match_outcome(state: FjordsState) -> Outcome:
    """The match's combined scores: every game's points per rule, the last game's tie-break."""
    combined: list[dict[str, int]] = [{} for _ in range(state.players)]
    for number, game in enumerate([*state.earlier_games, state], start=1):
        for seat, breakdown in enumerate(breakdowns(game)):
            combined[seat].update({f"game_{number}_{k}": v for k, v in breakdown.items()})
    return ranked(state, combined, match=True)


def ranked(state: FjordsState, points: list[dict[str, int]], match: bool = False) -> Outcome:
    """Totals, ranks and the winner, ties for the win broken by decision 8 in this package's README
    (a match: applied to its final game, `state`)."""
    totals = [sum(b.values()) for b in points]
    best = max(totals)
    tied = [seat for seat in settlement_order(state) if totals[seat] == best]
    # Decision 8 in this package's README: the latest in Settlement turn order among the tied
    winner = tied[-1]
    tie_break = ""
    if len(tied) > 1:
        tie_break = (
            f"Seats {', '.join(map(str, sorted(tied)))} tied "
            f"{'across the match ' if match else ''}on {best} points; seat {winner} wins "
            "because it went later in turn order at the beginning of the Settlement Phase"
            f"{' of the final game' if match else ''} (rule book, Winning the game; decision 8)."
        )
    scores = [
        PlayerScore(
            seat=seat, total=totals[seat], breakdown=points[seat], rank=_rank(seat, totals, winner)
        )
        for seat in range(state.players)
    ]
    return Outcome(scores=scores, winners=[winner], tie_break=tie_break)


def _rank(seat: int, totals: list[int], winner: int) -> int:
    """Competition ranking; the rule book breaks ties for the win only, lower ties share."""
    higher = sum(1 for total in totals if total > totals[seat])
    beaten_on_tie_break = seat != winner and totals[seat] == totals[winner]
    return 1 + higher + beaten_on_tie_break
