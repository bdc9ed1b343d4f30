"""A seat's live feed: every version of a game, in order, as events then a view or its change.

For each version the game reaches, a `LiveFeed` gives the events the seat may see (filtered
exactly as `GET /events` filters them), then the seat's view at the newest of those versions:
whole on the first message (connect or resume) and when the client asked for whole views,
otherwise as an RFC 6902 JSON Patch against the view the client last received. JSON Patch
rather than an RFC 7386 merge patch: a merge patch replaces an array whole (a board is an
array of hexes; one move would resend it) and cannot set a value to null (null deletes), both
common in views. The patch opens with a `test` of `/version`, so a client applying it to any
other view gets an error from its JSON Patch library, never a wrong view; and a patch no
smaller than the view is sent as the view.

A first connection starts at the current version (its view alone); a resume (`after`: the
SSE Last-Event-ID, 0 for the whole game) sends the events after that version, then the whole
view: every message carries its version as its id and all events up to a view's version are
sent before that view, so the client has seen every version up to its last id and nothing
after it is skipped or repeated.

A feed with `turns` (a seat's socket) follows each view with the seat's turn at that version
(who acts, its legal commands, the clock, the phase and the outcome), so the socket alone tells
a seat when and what it may play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import msgspec

from service.core.ports.notifier import Update
from service.facade.json_diff import json_diff
from service.facade.read_side import ReadSide

MessageKind = Literal["event", "view", "patch", "turn"]

_encode = msgspec.json.encode
_decode = msgspec.json.decode


@dataclass(frozen=True)
class LiveMessage:
    """One message of the feed: its kind, the version it brings the client to, its JSON."""

    kind: MessageKind
    version: int
    data: bytes


def view_patch(before: Any, after: Any) -> list[dict[str, Any]]:
    """The RFC 6902 patch taking view envelope `before` to `after`, guarded by a version test."""
    guard = {"op": "test", "path": "/version", "value": before["version"]}
    return [guard, *json_diff(before, after)]


class LiveFeed:
    """What one stream has sent, and the messages that bring it to a newer version."""

    def __init__(
        self,
        reads: ReadSide,
        game_id: str,
        seat: int | None,
        *,
        after: int = 0,
        patches: bool = True,
        turns: bool = False,
    ) -> None:
        self.reads = reads
        self.game_id = game_id
        self.seat = seat
        self.patches = patches
        self.turns = turns
        self.sent = after  # every event up to this version has been sent
        self._view: Any = None  # the last view sent (decoded), None until the first

    async def catch_up(self, update: Update | None = None) -> list[LiveMessage]:
        """The messages from the last version sent to the newest: events, then the view.

        `update` may carry the seat's view at its version (no read then); empty when the
        feed is already there.
        """
        carried = update.view_for(self.seat) if update is not None else None
        events, turn = None, None
        if carried is not None and update is not None:
            version, body = update.version, await self.reads.with_players(self.game_id, carried)
            events = update.events_for(self.seat, self.sent)
            turn = update.turn_for(self.seat)
        else:
            version, body = await self.reads.view(self.game_id, self.seat)
        if self._view is not None and version <= self.sent:
            return []
        if events is not None:  # the commit's own records: nothing to read back
            messages = [LiveMessage("event", at, data) for at, data in events]
        else:
            messages = [
                LiveMessage("event", record.version, _encode(record))
                for record in await self._events_until(version)
            ]
        messages.append(self._view_message(version, body))
        if self.turns:
            turn = turn if turn is not None else await self._stored_turn(version)
            if turn is not None:
                messages.append(LiveMessage("turn", version, turn))
        self.sent = max(self.sent, version)
        return messages

    async def _stored_turn(self, version: int) -> bytes | None:
        """The seat's turn at `version` as stored, in JSON; None when a commit since moved it
        on (the update of that commit brings it, after its events and view)."""
        turn = await self.reads.turn(self.game_id, self.seat)
        return _encode(turn) if turn.version == version else None

    async def _events_until(self, version: int) -> list[Any]:
        records: list[Any] = []
        after, limit = self.sent, self.reads.settings.max_events_page
        while after < version:
            page = await self.reads.events_after(self.game_id, after, self.seat, limit, version)
            records += page.events
            if len(page.events) < limit:
                break  # the page stopped at `version`, not at its length
            after = page.events[-1].version
        return records

    def _view_message(self, version: int, body: bytes) -> LiveMessage:
        view = _decode(body)
        before, self._view = self._view, view
        if before is None or not self.patches:
            return LiveMessage("view", version, body)
        patch = _encode(view_patch(before, view))
        if len(patch) >= len(body):
            return LiveMessage("view", version, body)
        return LiveMessage("patch", version, patch)
