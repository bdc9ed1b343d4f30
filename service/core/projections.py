"""Projections: what each seat and the public may see, encoded once per batch, and the
event pages filtered the same way.

A view is the game's own `view(state, seat)`, wrapped in a contracts.api.ViewEnvelope and
encoded in JSON and MessagePack, so serving one is a single Redis read with no encoding.

Events shown to a seat or spectator while a game is in progress go through the game's
`visible_event(event, seat) -> Event | None` (the event, a redacted copy, or None to withhold
it). Once the game is over every event is public, as the revealed seed lets anyone re-derive
every draw anyway.

Chain values are shown only once the game is over: h_n and h_{n-1} together would let a client
try every value of a hidden, low-entropy event (a die, a card) until the hash matches.
"""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.api import EventRecord, Turn
from contracts.stream import SeedRevealed
from domain.table import Table, is_service_event
from domain.table.forfeits import rank_forfeited_last
from service.core.codec import GameCodec
from service.core.ports.command_keys import shown_id
from service.core.ports.records import StoredEvent
from service.core.ports.views import (
    LIVE_AFTER_FIELD,
    live_events_field,
    live_turn_field,
    view_field,
)

FORMATS = ("json", "msgpack")


class _Envelope(msgspec.Struct, frozen=True):
    # The shape of contracts.api.ViewEnvelope, holding the game's View Struct as it is, so
    # that each view is encoded straight from the Struct without an intermediate dict.
    game_id: str
    version: int
    seat: int | None
    view: Any


_json = msgspec.json.Encoder()
_msgpack = msgspec.msgpack.Encoder()
_turn_decoder = msgspec.msgpack.Decoder(Turn)
TURN_FORMAT = "turn"  # views-hash fields `turn:<seat>`: a msgpack contracts.api.Turn


def encode_views(
    codec: GameCodec,
    game_id: str,
    version: int,
    state: Any,
    seats: int,
    phase: str = "started",
    deadlines: dict[int, int] | None = None,
    forfeited: frozenset[int] = frozenset(),
    live: bool = False,
) -> dict[str, bytes]:
    """Every seat's view and the public view at `version` in both encodings, and each one's
    turn (who acts, the seat's legal commands; nobody before the game starts; the outcome
    with forfeited seats ranked last). With `live`, each turn in JSON too, under a `live:`
    field: a commit publishes it to the seats' sockets, and never stores it."""
    game = codec.game
    to_act = game.to_act(state) if phase == "started" else []
    outcome = rank_forfeited_last(game.outcome(state), forfeited)
    fields: dict[str, bytes] = {}
    for seat in [None, *range(seats)]:
        envelope = _Envelope(game_id, version, seat, game.view(state, seat))
        fields[view_field("json", seat)] = _json.encode(envelope)
        fields[view_field("msgpack", seat)] = _msgpack.encode(envelope)
        legal = game.legal_commands(state, seat) if seat in to_act else []
        turn = Turn(
            game_id=game_id,
            version=version,
            seat=seat,
            to_act=list(to_act),
            legal_commands=msgspec.to_builtins(legal),
            finished=outcome is not None or phase == "cancelled",
            outcome=outcome,
            phase=FINISHED_PHASE if outcome is not None and phase == "started" else phase,
            deadlines=deadlines or {},
        )
        fields[view_field(TURN_FORMAT, seat)] = _msgpack.encode(turn)
        if live:
            fields[live_turn_field(seat)] = _json.encode(turn)
    return fields


def table_views(
    codec: GameCodec, game_id: str, table: Table, live: bool = False
) -> dict[str, bytes]:
    """`encode_views` of a table (domain.table) at its version."""
    return encode_views(
        codec,
        game_id,
        table.version,
        table.state,
        table.seats,
        table.phase,
        table.deadlines(),
        table.forfeited,
        live=live,
    )


FINISHED_PHASE = "finished"


def decode_turn(data: bytes) -> Turn:
    """A stored turn back as its Struct (one stored before finished games said so in their
    phase says it now)."""
    turn = _turn_decoder.decode(data)
    if turn.outcome is not None and turn.phase == "started":
        return msgspec.structs.replace(turn, phase=FINISHED_PHASE)
    return turn


def visible_records(
    codec: GameCodec, events: list[StoredEvent], seat: int | None, finished: bool
) -> list[EventRecord]:
    """The events `seat` (None: a spectator) may see, as API records."""
    visible_event = codec.game.visible_event
    records = []
    for stored in events:
        event = codec.decode_event(stored.data)
        if isinstance(event, SeedRevealed) and not finished:
            continue  # cannot happen in a consistent stream; never serve a seed early
        if not finished and not is_service_event(event):
            event = visible_event(event, seat)
            if event is None:
                continue
        records.append(
            EventRecord(
                version=stored.version,
                event=msgspec.to_builtins(event),
                hash=stored.hash.hex() if finished else "",
                command_id=shown_id(stored.command_id),
            )
        )
    return records


def encode_live_events(
    codec: GameCodec, after: int, events: list[StoredEvent], seats: int, finished: bool
) -> dict[str, bytes]:
    """A commit's events as every viewer may see them (the records GET /events serves, as a
    JSON array per viewer) and the version they follow: published with the views, so a live
    feed sends them without reading them back."""
    fields = {LIVE_AFTER_FIELD: str(after).encode()}
    for seat in [None, *range(seats)]:
        records = visible_records(codec, events, seat, finished)
        fields[live_events_field(seat)] = _json.encode(records)
    return fields
