"""CPU time of named groups of processes over a window, read from /proc/<pid>/stat.

A group is a root process and, unless `own_only`, every process below it: the time its
children used (alive now, or already exited and reaped) counts to it, so a worker that forks
or one that is replaced mid-window is still counted. Linux only (the figures come from /proc).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

PROC = Path("/proc")
TICKS_PER_S = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Times:
    """One process's CPU ticks: its own, and those of its children already reaped."""

    ppid: int
    own: int
    reaped: int


def _times(pid: int) -> Times | None:
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    # The command name may hold spaces and parentheses: the fields start after the last ')'.
    fields = stat[stat.rindex(")") + 2 :].split()
    utime, stime, cutime, cstime = (int(value) for value in fields[11:15])
    return Times(int(fields[1]), utime + stime, cutime + cstime)


def _all_times() -> dict[int, Times]:
    found = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (times := _times(int(entry.name))) is not None:
            found[int(entry.name)] = times
    return found


def _descendants(root: int, table: dict[int, Times]) -> list[int]:
    children: dict[int, list[int]] = {}
    for pid, times in table.items():
        children.setdefault(times.ppid, []).append(pid)
    found, pending = [], list(children.get(root, []))
    while pending:
        pid = pending.pop()
        found.append(pid)
        pending.extend(children.get(pid, []))
    return found


@dataclass(frozen=True)
class Group:
    """A named process, with (`own_only=False`) every process below it."""

    name: str
    pid: int
    own_only: bool = False
    without: tuple[str, ...] = ()  # a group's ticks to leave out of this one (the API's own)


@dataclass
class CpuMeter:
    """CPU seconds each group used between `start()` and `stop()`."""

    groups: list[Group]
    used: dict[str, float] = field(default_factory=dict)  # the last window's, in seconds
    _started: dict[str, int] = field(default_factory=dict)

    def _ticks(self) -> dict[str, int]:
        table = _all_times()
        ticks = {}
        for group in self.groups:
            root = table.get(group.pid)
            if group.own_only:
                ticks[group.name] = root.own if root else 0
                continue
            total = root.own + root.reaped if root else 0
            total += sum(
                table[pid].own + table[pid].reaped for pid in _descendants(group.pid, table)
            )
            ticks[group.name] = total
        for group in self.groups:
            for other in group.without:
                ticks[group.name] -= ticks[other]
        return ticks

    def start(self) -> None:
        """Read every group's CPU time now."""
        self._started = self._ticks()

    def stop(self) -> dict[str, float]:
        """CPU seconds each group used since `start()`."""
        if not self._started:
            raise RuntimeError("the CPU meter was stopped without being started")
        ended = self._ticks()
        self.used = {name: (ended[name] - self._started[name]) / TICKS_PER_S for name in ended}
        self._started = {}  # each window is started anew
        return self.used


def process_seconds(pid: int) -> float:
    """CPU seconds process `pid` used so far (its own, user + system); OSError once gone."""
    times = _times(pid)
    if times is None:
        raise ProcessLookupError(pid)
    return times.own / TICKS_PER_S


def tree_seconds(root: int, table: dict[int, Times] | None = None) -> float:
    """CPU seconds used so far by process `root` and every live process below it (their own
    time, not that of children already reaped), read from `table` (default: /proc now)."""
    table = _all_times() if table is None else table
    return sum(table[pid].own for pid in [root, *_descendants(root, table)] if pid in table) / (
        TICKS_PER_S
    )


def children_of(root: int, table: dict[int, Times]) -> list[int]:
    """The live children of process `root` in `table`."""
    return [pid for pid, times in table.items() if times.ppid == root]


def all_times() -> dict[int, Times]:
    """Every live process's CPU ticks, by pid."""
    return _all_times()
