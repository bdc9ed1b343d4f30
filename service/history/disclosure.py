"""What replay and audit may show whom: the one place that decides it.

While a game is in progress a seat (or a spectator) is served only what live play would show
it, and nothing that could tell it more:
- views only, never a raw state: its own seat's view and the public one (`game.view`);
- the game's events through the game's `visible_event(event, seat)` hook, as the events
  endpoint does;
- another seat's command body, request id, refusal reason and legal alternatives are
  withheld: a command is sent with its seat's hidden knowledge, and a refusal's details may
  name it (the outcome endpoint keeps them to the sending seat for the same reason);
- chain values are withheld (with h_{n-1} and h_n a client could try every value of a hidden,
  low-entropy event until the hash matches), and so is the seed, which no event holds yet.
Once the game is over everything may be shown: the revealed seed re-derives every draw anyway.
An operator (the `skald` command, run with the store's credentials) sees everything always.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from contracts.api import EventRecord
from contracts.stream import GameCreated, SeedRevealed
from domain.engine import Game
from service.core.ports.command_keys import shown_id
from service.core.ports.records import StoredEvent
from service.shared.errors import Forbidden


def plain(value: Any) -> Any:
    """`value` as JSON would carry it (tuples become lists), so what the Python API returns
    equals what a client decodes."""
    return msgspec.json.decode(msgspec.json.encode(value))


@dataclass(frozen=True)
class Audience:
    """Who asks: a seat (its token proved it), a spectator (seat None), or an operator."""

    seat: int | None = None
    operator: bool = False

    @property
    def label(self) -> str:
        """How the audience is named in messages."""
        if self.operator:
            return "the operator"
        return "a spectator" if self.seat is None else f"seat {self.seat}"


SPECTATOR = Audience()
OPERATOR = Audience(operator=True)


class Disclosure:
    """What one audience may see of one game, given whether the game is over."""

    def __init__(self, audience: Audience, game: Game, finished: bool) -> None:
        self.audience = audience
        self.game = game
        self.everything = audience.operator or finished

    def may_see_seat(self, seat: int | None) -> bool:
        """Whether the audience may see `seat`'s private side (None: the public side)."""
        return self.everything or seat is None or seat == self.audience.seat

    def check_view_seat(self, seat: int | None) -> None:
        """Forbidden unless the audience may read `seat`'s view."""
        if not self.may_see_seat(seat):
            raise Forbidden(
                "seat.forbidden",
                f"seat {seat}'s view of a game in progress is for seat {seat} alone; "
                f"{self.audience.label} may read the public view, or every view once the game "
                "is over",
                details={"seat": seat, "asked_by": self.audience.seat},
            )

    def view(self, state: Any, seat: int | None) -> dict[str, Any] | None:
        """`game.view(state, seat)` as plain data, or None before the table exists."""
        self.check_view_seat(seat)
        if state is None:
            return None
        data: dict[str, Any] = plain(self.game.view(state, seat))
        return data

    def event(self, event: Any) -> Any | None:
        """The event as the audience may see it (a redacted copy), or None to withhold it."""
        if isinstance(event, GameCreated) or self.everything:
            return event
        if isinstance(event, SeedRevealed):
            return None
        return self.game.visible_event(event, self.audience.seat)

    def event_records(self, stored: list[StoredEvent], decoded: list[Any]) -> list[EventRecord]:
        """API records of the events the audience may see (chain values once allowed)."""
        records = []
        for stored_event, event in zip(stored, decoded, strict=True):
            shown = self.event(event)
            if shown is None:
                continue
            records.append(
                EventRecord(
                    version=stored_event.version,
                    event=plain(shown),
                    hash=stored_event.hash.hex() if self.everything else "",
                    command_id=shown_id(stored_event.command_id),
                )
            )
        return records
