"""Decoding what Redis replies about a game: stream entries as events and commands, the
drain scripts' replies as opened lease rounds and taken games."""

from __future__ import annotations

from typing import Any

from service.core.ports.records import GameMeta, GameRound, Head, ReceivedCommand, StoredEvent
from service.shared.errors import GameDamaged


def text(value: bytes | str) -> str:
    """A reply's bytes as text."""
    return value.decode() if isinstance(value, bytes) else value


def is_inbox_id(value: bytes) -> bool:
    """Whether a stored command record is still an inbox id (the command is queued)."""
    # A queued command's record is its inbox id; a decided one is a msgpack array.
    return bool(value) and value[:1].isdigit()


def stored_event(entry_id: bytes, fields: dict[bytes, bytes]) -> StoredEvent:
    """An event stream entry as an event."""
    command = fields.get(b"c")
    return StoredEvent(
        version=int(entry_id.split(b"-", 1)[0]),
        data=fields[b"e"],
        hash=fields[b"h"],
        command_id=command.decode() if command is not None else None,
    )


def entry_fields(flat: list[bytes]) -> dict[bytes, bytes]:
    """A stream entry's fields as a Lua script returns them: [name, value, name, value, ...]."""
    return dict(zip(flat[::2], flat[1::2], strict=True))


def received_command(entry_id: bytes, fields: dict[bytes, bytes]) -> ReceivedCommand:
    """An inbox entry as the command received."""
    return ReceivedCommand(
        seat=int(fields[b"s"]),
        command_id=fields[b"c"].decode(),
        request_id=fields[b"r"].decode(),
        body=fields[b"b"],
        inbox_id=entry_id.decode(),
        expected_version=_optional_int(fields.get(b"x")),
    )


def _optional_int(raw: bytes | None) -> int | None:
    return None if raw is None else int(raw)


def checked_received(game_id: str, entry: tuple[bytes, dict[bytes, bytes]]) -> ReceivedCommand:
    """An inbox entry as a command; GameDamaged naming it when a field is lost or garbled."""
    try:
        return received_command(*entry)
    except (KeyError, ValueError, UnicodeDecodeError):
        raise GameDamaged(game_id, f"inbox entry {text(entry[0])} is malformed") from None


def popped_games(reply: Any) -> list[str]:
    """The game ids of a BZMPOP reply (None when it timed out)."""
    return [] if reply is None else [text(member) for member, _ in reply[1]]


def opened_round(reply: list[Any]) -> GameRound | None:
    """An opened lease round from the open_round script's reply; None when held or missing."""
    if reply[0] != b"ok":
        return None
    _, token, version, chain, cursor, status, commands, events, facts = reply
    head = Head(int(version), chain or b"", text(cursor), status == b"finished")
    meta = seed = None
    if facts:
        game, rules, seats, created, seed = facts
        meta = GameMeta(text(game), text(rules), int(seats), text(created))
    return GameRound(
        lease=int(token),
        head=head,
        commands=[received_command(entry_id, entry_fields(flat)) for entry_id, flat in commands],
        events=[stored_event(entry_id, entry_fields(flat)) for entry_id, flat in events],
        meta=meta,
        seed=seed,
    )
