"""The seated players' names in a view envelope.

Views are stored pre-encoded by the commit; a seat's name is given when the seat is taken,
which makes no new version (a guest game's seats are taken after it is created). So the names
are added when a view is served, from the game's seat records, without re-encoding the view:
the stored envelope is read with its `view` left as raw bytes and written again with
`players` (the same list the lobby shows: each taken seat and the name given, trimmed and
length-limited when joining).
"""

from __future__ import annotations

import msgspec

from contracts.api import PlayerName


class _Stored(msgspec.Struct, frozen=True):
    game_id: str
    version: int
    seat: int | None
    view: msgspec.Raw


class _Named(msgspec.Struct, frozen=True):
    # The shape of contracts.api.ViewEnvelope, its view kept as the stored bytes.
    game_id: str
    version: int
    seat: int | None
    view: msgspec.Raw
    players: list[PlayerName]


_DECODERS: dict[str, msgspec.json.Decoder[_Stored] | msgspec.msgpack.Decoder[_Stored]] = {
    "json": msgspec.json.Decoder(_Stored),
    "msgpack": msgspec.msgpack.Decoder(_Stored),
}
_ENCODERS: dict[str, msgspec.json.Encoder | msgspec.msgpack.Encoder] = {
    "json": msgspec.json.Encoder(),
    "msgpack": msgspec.msgpack.Encoder(),
}


def players_of(names: dict[int, str]) -> list[PlayerName]:
    """The seated players in seat order, from each taken seat's name."""
    return [PlayerName(seat, name) for seat, name in sorted(names.items())]


def with_players(body: bytes, fmt: str, players: list[PlayerName]) -> bytes:
    """A stored envelope (`fmt`: json or msgpack) with the seated players' names; ValueError
    when the stored bytes are no envelope."""
    try:
        stored = _DECODERS[fmt].decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ValueError(f"not a view envelope: {exc}") from None
    named = _Named(stored.game_id, stored.version, stored.seat, stored.view, players)
    return _ENCODERS[fmt].encode(named)
