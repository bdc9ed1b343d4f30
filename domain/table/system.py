"""The service's own commands at a table (contracts.system): their inbox seat and ids.

They travel the inbox like a seat's commands, under `SYSTEM_SEAT` and command ids a client
cannot choose (`sys:…`, with a colon), so they are ordered against the seats' commands and
recorded and audited like them. The game's rules never see them: they append service events
(contracts.stream) that the table follows and the game's `evolve` never sees.
"""

from __future__ import annotations

SYSTEM_SEAT = -1  # the inbox seat of the service's own commands
START_ID = "sys:start"  # one start per game: the inbox refuses a second command with this id
CANCEL_ID = "sys:cancel"


def timeout_id(seat: int, since: int) -> str:
    """The command id of one deadline's timeout: one per deadline, so it never fires twice."""
    return f"sys:timeout:{seat}:{since}"


def resign_id(seat: int) -> str:
    """The command id of a seat's resignation: once per seat."""
    return f"sys:resign:{seat}"


class SystemRefused(Exception):
    """A system command that does not fit the table's phase (recorded as a refusal)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
