"""The total clock with an increment (domain/table/clocks.py), move by move: the bank
loses the time a turn used and gains the increment; a deadline is the per-move clock or the
bank, whichever runs out first; a bank that ran out leaves only the increment."""

from __future__ import annotations

from contracts.stream import Clock, TurnClocks
from domain.table.clocks import first_clocks, next_clocks

CLOCK = Clock(per_move_s=60, total_s=100, increment_s=5)


def step(current: TurnClocks, waiting: list[int], acting: int | None, now_ms: int) -> TurnClocks:
    changed = next_clocks(
        CLOCK,
        current,
        waiting,
        acting,
        moved_itself=acting is not None,
        since=now_ms,
        now_ms=now_ms,
    )
    assert changed is not None
    return changed


def test_a_bank_loses_the_time_used_and_gains_the_increment() -> None:
    clocks = step(first_clocks(CLOCK, 2), [0], None, 0)
    [entry] = clocks.entries
    assert (entry.seat, entry.deadline_ms, entry.bank_ms) == (0, 60_000, 100_000)
    clocks = step(clocks, [1], 0, 30_000)  # seat 0 used 30 s of its 100
    assert clocks.banks == [75_000, 100_000]
    clocks = step(clocks, [0], 1, 40_000)  # seat 1 used 10 s
    assert clocks.banks == [75_000, 95_000]
    [entry] = clocks.entries
    assert entry.deadline_ms == 40_000 + 60_000  # the per-move clock is shorter than the bank


def test_the_bank_sets_the_deadline_once_it_is_shorter_than_a_move() -> None:
    clocks = step(first_clocks(CLOCK, 2), [0], None, 0)
    now = 0
    for _ in range(3):  # seat 0 takes 50 s each turn; seat 1 answers at once
        now += 50_000
        clocks = step(clocks, [1], 0, now)
        clocks = step(clocks, [0], 1, now)
    # 100 - 3 x 50 + 3 x 5 would be -35: the bank stops at 0, then gains the increment
    assert clocks.banks[0] == 5_000
    [entry] = clocks.entries
    assert entry.deadline_ms - entry.started_ms == 5_000  # the bank, not the minute
