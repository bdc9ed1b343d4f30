"""The stored projections' field names, and the port that writes views outside a commit
(rebuilds; a commit writes its views in its own atomic step, service.core.ports.event_store)."""

from __future__ import annotations

from typing import Protocol


def view_field(fmt: str, seat: int | None) -> str:
    """The views-hash field of one encoding of one seat's (or the public, `p`) view."""
    return f"{fmt}:{'p' if seat is None else seat}"


# Fields that ride with a commit's views to its notification but are never stored: the
# version the commit's events follow, and each viewer's records of those events.
LIVE_PREFIX = "live:"


LIVE_AFTER_FIELD = "live:after"


def live_events_field(seat: int | None) -> str:
    """The notification field of one seat's (or the public, `p`) records of a commit's events."""
    return f"{LIVE_PREFIX}{'p' if seat is None else seat}"


def live_turn_field(seat: int | None) -> str:
    """The notification field of one seat's (or the public, `p`) turn after a commit, in JSON."""
    return f"{LIVE_PREFIX}turn:{'p' if seat is None else seat}"


class Views(Protocol):
    """Pre-encoded projections outside a commit (rebuilds); reads go through the store."""

    async def write(
        self, game_id: str, version: int, fields: dict[str, bytes], *, repair: bool = False
    ) -> bool:
        """Store views at `version` unless as new ones are there (newer ones, with `repair`:
        a repair writes the same version again over damaged ones); True when written."""
        ...
