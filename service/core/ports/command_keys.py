"""Command ids are per seat: a game's commands are keyed by `<seat>:<id>`.

A client chooses its command ids (`[A-Za-z0-9._~-]`, never a colon), so two seats may use the
same id and get two commands; nothing about one seat's ids is said to another. The key
`<seat>:<id>` names a command in the game's commands hash and tags the events it produced.
Records written before ids were per seat are keyed by the bare id (ids were then unique per
game); they stay readable: a bare-keyed record belongs to the seat stored in it, and a bare
event tag to the first command received with that id. Bots' moves are tagged
`bot:<seat>:<version>[:<bot>]`, a name no key can take (a key starts with a seat number).
"""

from __future__ import annotations

import re

_KEY = re.compile(r"(-?\d+):(.+)", re.DOTALL)


def command_key(seat: int, command_id: str) -> str:
    """The key of a seat's command in its game."""
    return f"{seat}:{command_id}"


def split_key(tag: str) -> tuple[int, str] | None:
    """(seat, command id) of a key; None for a bare id (a record written before ids were per
    seat) or a bot's tag."""
    match = _KEY.fullmatch(tag)
    return None if match is None else (int(match[1]), match[2])


def client_id(tag: str) -> str:
    """The command id its sender chose, from a key or a bare id."""
    split = split_key(tag)
    return tag if split is None else split[1]


def shown_id(tag: str | None) -> str | None:
    """An event's command tag as clients see it: the sender's own id (None for no command)."""
    return None if tag is None else client_id(tag)
