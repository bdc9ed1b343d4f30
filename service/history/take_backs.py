"""Which command took an abandoned seat back from its bot.

`SeatTakenBack` carries no command id (it stands even when the rules then refuse the command
that took the seat back), so no command's span holds it. The command that caused it is the
first decided command of that seat after every command whose events come before it: the
take-back is appended in the same step, right before that command is decided.
"""

from __future__ import annotations

from contracts.stream import SeatTakenBack
from service.history.record import GameHistory


def take_backs(history: GameHistory) -> dict[str, int]:
    """The key of each command that took its seat back, with the take-back's version."""
    taken: dict[str, int] = {}
    for version, event in enumerate(history.events, start=1):
        if not isinstance(event, SeatTakenBack) or history.stored[version - 1].command_id:
            continue
        steps = [step for step in history.steps if step.status != "queued"]
        before = [
            index
            for index, step in enumerate(steps)
            if step.first_version is not None and step.first_version < version
        ]
        start = before[-1] + 1 if before else 0
        by = next((step for step in steps[start:] if step.seat == event.seat), None)
        if by is not None:
            taken[by.key] = version
    return taken
