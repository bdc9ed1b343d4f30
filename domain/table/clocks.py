"""Turn timers: which seats the game waits for, until when, and what their clocks hold.

Pure: the caller passes the time. After each command the deadlines of the seats the game now
waits for are worked out again: a seat still waited for keeps its deadline, unless it just
moved itself (a new move, a new clock); a seat newly waited for gets one; a seat no longer
waited for is settled (its total clock loses the time used and gains the increment). Any
change is one TurnClocks event, so replay and audit show every deadline and a reloaded
session knows them exactly. Each deadline is named by (seat, `since`): the version of the
TurnClocks event that set it, which a timeout names back.
"""

from __future__ import annotations

from contracts.stream import Clock, ClockEntry, TurnClocks


def _ms(seconds: float) -> int:
    return round(seconds * 1000)


def first_clocks(clock: Clock, seats: int) -> TurnClocks:
    """The clocks before any turn: full banks, no missed turns, nobody waited for."""
    return TurnClocks([], [_ms(clock.total_s)] * seats, [0] * seats)


def next_clocks(
    clock: Clock,
    current: TurnClocks,
    waiting: list[int],
    acting: int | None,
    *,
    moved_itself: bool,
    since: int,
    now_ms: int,
) -> TurnClocks | None:
    """The clocks after a command of `acting` (None: the service's own), or None when they
    do not change. `moved_itself`: the seat played (not a bot for it), ending its missed run."""
    banks, missed = list(current.banks), list(current.missed)
    held = {entry.seat: entry for entry in current.entries}
    if acting is not None and moved_itself and 0 <= acting < len(missed):
        missed[acting] = 0
    for seat, entry in held.items():
        if (seat == acting or seat not in waiting) and clock.total_s:
            used = max(0, now_ms - entry.started_ms)
            banks[seat] = max(0, entry.bank_ms - used) + _ms(clock.increment_s)
    entries = []
    for seat in sorted(set(waiting)):
        kept = held.get(seat)
        if kept is not None and seat != acting:
            entries.append(kept)
            continue
        allowed = _ms(clock.per_move_s)
        if clock.total_s:
            allowed = min(allowed, banks[seat])
        entries.append(ClockEntry(seat, since, now_ms, now_ms + allowed, banks[seat]))
    changed = TurnClocks(entries, banks, missed)
    return None if changed == current else changed


def new_deadlines(clocks: TurnClocks, since: int) -> list[tuple[int, int]]:
    """(seat, deadline ms) of the deadlines set by the TurnClocks event at version `since`."""
    return [(entry.seat, entry.deadline_ms) for entry in clocks.entries if entry.since == since]
