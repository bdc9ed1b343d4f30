"""Webhooks: the endpoints an operator registers (`WebhookEndpoints`), where the projector
queues notifications for delivery (`WebhookInbox`), the deliveries the dispatcher works through
(`WebhookStore`), how an attempt is posted (`Poster`) and the guard that refuses endpoints on
non-public addresses (`HostGuard`)."""

from __future__ import annotations

from typing import Protocol

import msgspec

from contracts.webhooks import DeadLetter, Endpoint


class Delivery(msgspec.Struct, frozen=True):
    """A delivery in flight: its stable id, its body, the attempts made so far."""

    id: str
    body: bytes
    attempts: int


class PairOutcome(msgspec.Struct, frozen=True):
    """What a pass did with one (endpoint, player) pair: finished it at `at_ms` (delivered,
    nothing left to send, or dead-lettered with `dead`), or, with `retry_attempts`, recorded
    a failed attempt to retry at `at_ms`; `drop` first deletes its queue and delivery (the
    endpoint was removed)."""

    endpoint_id: str
    player_id: str
    at_ms: int
    retry_attempts: int = 0
    dead: DeadLetter | None = None
    drop: bool = False


class DeliveryFailed(Exception):
    """No HTTP answer: the connection was refused or lost, or the attempt timed out."""


class Poster(Protocol):
    """POSTs one delivery attempt."""

    async def post(self, url: str, body: bytes, headers: dict[str, str], timeout_s: float) -> int:
        """The status the endpoint answered; DeliveryFailed when it did not answer."""
        ...


class HostUnresolved(Exception):
    """The endpoint's host name resolves to no address."""


class WebhookEndpoints(Protocol):
    """Endpoints, the delivery inbox and queues, and the dead letters."""

    async def add_endpoint(self, endpoint: Endpoint) -> None:
        """Register (or replace) an endpoint."""
        ...

    async def endpoints(self) -> list[Endpoint]:
        """Every registered endpoint, by id."""
        ...

    async def remove_endpoint(self, endpoint_id: str) -> bool:
        """Unregister an endpoint; whether it was registered."""
        ...

    async def dead_letters(self) -> list[DeadLetter]:
        """Every dead-lettered delivery, oldest first."""
        ...

    async def replay(self, dead_id: str, now_ms: int) -> bool:
        """Queue a dead letter's delivery again, as it was (same id and body), unless its
        pair has a delivery in flight; whether it did."""
        ...

    async def now_ms(self) -> int:
        """The Redis clock, in ms."""
        ...


class WebhookInbox(Protocol):
    """Where notifications wait for the webhook dispatcher: the projector's side."""

    async def any_endpoint(self) -> bool:
        """Whether any endpoint is registered (else nothing need be queued for delivery)."""
        ...

    async def enqueue_many(self, notifications: list[tuple[str, str, bytes]]) -> None:
        """Queue (player, kind, JSON) notifications for delivery, in one round trip."""
        ...


class WebhookStore(Protocol):
    """Endpoints, the delivery inbox and queues, and the dead letters."""

    async def ensure_group(self) -> None:
        """Create the dispatchers' consumer group on the inbox (once)."""
        ...

    async def read_inbox(
        self, consumer: str, count: int, block_ms: int, reclaim_idle_ms: int, reclaim: bool = True
    ) -> list[tuple[str, str, str, bytes]]:
        """(entry id, player, kind, JSON) of inbox entries for this consumer: first (with
        `reclaim`) those a dead dispatcher left unacknowledged for `reclaim_idle_ms`, then
        new ones."""
        ...

    async def intake(self, entries: list[tuple[str, str, str, bytes]], now_ms: int) -> int:
        """Move inbox entries into their endpoints' queues; how many queue items were made."""
        ...

    async def take(self, now_ms: int, lease_ms: int, limit: int) -> list[tuple[str, str]]:
        """(endpoint, player) pairs due now, each leased until now + lease_ms."""
        ...

    async def in_flight(self, endpoint_id: str, player_id: str) -> Delivery | None:
        """The pair's delivery in flight, if any."""
        ...

    async def pair_states(
        self, pairs: list[tuple[str, str]], limit: int, presence_keys: list[str], now_ms: int
    ) -> tuple[list[Endpoint], list[tuple[Delivery | None, list[bytes], bool]]]:
        """In one round trip for a whole pass: the endpoints, and `pair_state` of each pair
        (`presence_keys[i]` is the presence key of the player of `pairs[i]`)."""
        ...

    async def freeze_many(self, frozen: list[tuple[str, str, int, Delivery | None]]) -> list[bool]:
        """`freeze` for several (endpoint, player, taken, delivery), in one round trip."""
        ...

    async def settle_pass(self, outcomes: list[PairOutcome]) -> None:
        """Record the outcomes of a pass's pairs in one round trip (in order)."""
        ...

    async def now_ms(self) -> int:
        """The Redis clock, in ms."""
        ...


class HostGuard(Protocol):
    """Refuses endpoints on non-public addresses (unless private ones are allowed)."""

    async def refusal(self, url: str, resolve: bool = True) -> str | None:
        """Why the URL's host may not be called (None: it may). HostUnresolved when its
        name resolves to no address. With `resolve` false a name is left to whoever
        connects (a connector that checks the addresses it resolves)."""
        ...
