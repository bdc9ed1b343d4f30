"""Messages of a game's live stream (`GET /v1/games/{id}/stream`, server-sent events).

Every SSE message carries `id: <version>`. Its `event:` field names the message:
- `event`: one event the seat may see (`data`: an EventRecord, as `GET /events` returns it);
- `view`: the seat's whole view (`data`: a ViewEnvelope), on connect, on resume and on request;
- `patch`: a change to the view the client holds (`data`: an RFC 6902 JSON Patch document,
  a list of PatchOperation, applied to the last ViewEnvelope; its first operation tests
  `/version`, so a patch applied to the wrong view fails instead of corrupting it).
"""

from __future__ import annotations

from typing import Any

import msgspec


class PatchOperation(msgspec.Struct, frozen=True, omit_defaults=True):
    """One RFC 6902 operation: add, remove, replace, move, copy or test at a JSON Pointer."""

    op: str
    path: str
    value: Any = msgspec.UNSET
    from_: str | msgspec.UnsetType = msgspec.field(default=msgspec.UNSET, name="from")


class StreamTicket(msgspec.Struct, frozen=True):
    """A single-use ticket that opens a seat's stream from a URL (`?ticket=`), for clients
    such as a browser's EventSource that cannot send an Authorization header."""

    ticket: str
    expires_in: int  # seconds
