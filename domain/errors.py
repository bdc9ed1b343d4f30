"""The one error a game's rules raise."""

from __future__ import annotations


class IllegalCommand(Exception):
    """A command the rules refuse.

    `code` is stable and machine-readable (`fjords.tile.touches_fewer_than_two`), `message` is
    for the player, `details` carries what a client needs to show why (a corner, a position).
    """

    def __init__(self, code: str, message: str, **details: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details: dict[str, object] = details

    def __repr__(self) -> str:
        return f"IllegalCommand({self.code!r}, {self.message!r}, {self.details!r})"
