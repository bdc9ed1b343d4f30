"""The store's connections as the facade holds them: it checks that they answer (readiness) and
closes them when the process stops."""

from __future__ import annotations

from typing import Any, Protocol


class StoreConnection(Protocol):
    """The event store's client (asynchronous)."""

    def ping(self) -> Any:
        """Awaited: raises when the store does not answer."""
        ...

    async def aclose(self) -> None:
        """Close the client's connections."""
        ...


class QueueConnection(Protocol):
    """The job queue's client (synchronous: run in a thread)."""

    def ping(self) -> Any:
        """Raises when the queue does not answer."""
        ...

    def close(self) -> None:
        """Close the client's connections."""
        ...


class AddressCounters(Protocol):
    """Per-address request counters (the facade's limits on creations by client address)."""

    async def hit(self, action: str, address: str, window_ms: int) -> tuple[int, int]:
        """Count one request: (requests in the window so far, milliseconds the window has
        left)."""
        ...
