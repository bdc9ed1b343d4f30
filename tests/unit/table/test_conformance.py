"""Every game x every clock policy, played through the pure table engine over fixed seeds:
players moving, seats timing out, stale timeouts and late commands, players resigning and
coming back to abandoned seats, until the game ends. Each decision and the table between
them keep their invariants (tables.py); the recorded events fold back into the same table."""

from __future__ import annotations

import pytest

from contracts.stream import (
    SeatAbandoned,
    SeatForfeited,
    SeatResigned,
    SeatTakenBack,
    TurnClocks,
    TurnSkipped,
    TurnTimedOut,
)
from contracts.system import Resign
from domain.games import builtin_game_names, get_game
from domain.table import Refused, resign_id
from tests.unit.table.tables import (
    POLICIES,
    Played,
    check_outcome,
    play,
    refolded,
    snapshot,
)

SEEDS = (1, 2)
MOST_COMMANDS = 2_000  # every run ends far sooner: the bots take over timed-out seats
# The service events each policy must have recorded over the seeds.
SIGNATURES: dict[str, tuple[type, ...]] = {
    "untimed": (),
    "bot": (TurnTimedOut, TurnClocks),
    "skip": (TurnTimedOut, TurnSkipped),
    "forfeit": (TurnTimedOut, SeatForfeited),
    "take_back": (SeatAbandoned, SeatTakenBack),
    "no_take_back": (SeatAbandoned,),
    "total_clock": (TurnTimedOut, TurnClocks),
}
CASES = [
    (name, policy)
    for name in builtin_game_names()
    for policy in SIGNATURES
    if policy != "skip" or get_game(name).may_pass
]


def kinds(played: Played) -> set[type]:
    return {type(event) for event, _ in played.recorded}


@pytest.mark.parametrize(("name", "policy"), CASES)
def test_every_game_under_every_clock_policy_ends_consistent(name: str, policy: str) -> None:
    game = get_game(name)
    clock = POLICIES.get(policy)
    seen: set[type] = set()
    for seed in SEEDS:
        played = play(game, clock, seed, MOST_COMMANDS)
        assert played.table.finished, f"{name} under {policy} did not end (seed {seed})"
        check_outcome(played.table)
        assert snapshot(refolded(played)) == snapshot(played.table)
        banks = [] if played.table.clocks is None else played.table.clocks.banks
        assert all(bank >= 0 for bank in banks)
        seen |= kinds(played)
    assert set(SIGNATURES[policy]) <= seen, f"{name} under {policy} never showed its policy"
    if clock is None:
        assert not seen & {TurnClocks, TurnTimedOut}


def test_a_resigned_seat_is_a_bots_and_cannot_resign_again() -> None:

    played = play(get_game("fjords"), None, 3, 0)
    first = played.system(resign_id(0), Resign(0))
    again = played.system("again", Resign(0))
    assert SeatResigned(0) in [r.event for r in first.events]
    assert 0 in played.table.bots
    assert isinstance(again.outcome, Refused) and again.outcome.code == "seat.cannot_resign"
