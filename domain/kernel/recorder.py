"""The events of one decision, each applied to a scratch state as it is emitted.

A command's later rules then read the state exactly as the fold will have it (a refill after a
placement, a turn passed after a wreck), so decide and evolve cannot disagree; the state the
caller holds is never changed, because the recorder works on a copy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from contracts.base import Event

State = TypeVar("State")


class Recorder(Generic[State]):
    """Events in the making and the scratch state they lead to.

    `state` is the recorder's own (give it a copy); `evolve` is the game's, which may change the
    state in place and returns it. A game subclasses this to bind its `evolve` and to add what
    its rules draw or read while deciding (dice, a turn under way).
    """

    def __init__(self, state: State, evolve: Callable[[State, Event], State]) -> None:
        self.state = state
        self.events: list[Event] = []
        self._evolve = evolve

    def emit(self, event: Event) -> None:
        """Record an event and apply it to the scratch state."""
        self.events.append(event)
        self.state = self._evolve(self.state, event)
