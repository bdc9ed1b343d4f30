"""The hash chain over a game's events: h_0 = SHA-256(game id), h_n = SHA-256(h_{n-1} || e_n).

`e_n` is the event's stored bytes (MessagePack). Chain values are kept as raw 32 bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from service.core.ports.records import StoredEvent


def genesis(game_id: str) -> bytes:
    """h_0: the chain value before the first event."""
    return hashlib.sha256(game_id.encode()).digest()


def link(previous: bytes, data: bytes) -> bytes:
    """h_n from h_{n-1} and the event's bytes."""
    return hashlib.sha256(previous + data).digest()


def links(previous: bytes, datas: list[bytes]) -> list[bytes]:
    """The chain values of events appended in order after `previous`."""
    values = []
    for data in datas:
        previous = hashlib.sha256(previous + data).digest()
        values.append(previous)
    return values


def first_broken_link(game_id: str, events: Iterable[StoredEvent]) -> int | None:
    """The version of the first event whose stored chain value is wrong, or None if all hold."""
    value = genesis(game_id)
    expected_version = 1
    for event in events:
        value = link(value, event.data)
        if event.version != expected_version or event.hash != value:
            return event.version
        expected_version += 1
    return None
