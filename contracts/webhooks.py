"""Webhook endpoints an operator registers, what they receive, and deliveries given up on.

Deliveries are signed as the Standard Webhooks specification says (`webhook-id`,
`webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>`, the
secret shown as `whsec_<base64>`), so a receiver verifies them with an existing library.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from contracts.api import Request
from contracts.notifications import Notification, NotificationKind


class CreateEndpointRequest(Request, frozen=True):
    """Body of POST /v1/admin/webhooks."""

    # Printable ASCII without spaces (the same class in JSON Schema and Python regexes).
    url: Annotated[str, msgspec.Meta(min_length=8, max_length=2000, pattern=r"^https?://[!-~]+$")]
    kinds: list[NotificationKind] = []  # none: every kind
    secret: str | None = None  # `whsec_<base64>`; one is made when not given


class Endpoint(msgspec.Struct, frozen=True):
    """A registered endpoint (its secret is shown only when it is created)."""

    id: str
    url: str
    kinds: list[str]
    secret: str
    created_ms: int


class EndpointView(msgspec.Struct, frozen=True):
    """An endpoint as listed: without its secret."""

    id: str
    url: str
    kinds: list[str]
    created_ms: int


class EndpointList(msgspec.Struct, frozen=True):
    """Every registered endpoint."""

    endpoints: list[EndpointView]


class WebhookBody(msgspec.Struct, frozen=True):
    """What a delivery carries: a player's pending notifications, oldest first (several
    collapse into one delivery)."""

    type: str  # "notifications"
    player_id: str
    notifications: list[Notification]


class DeadLetter(msgspec.Struct, frozen=True):
    """A delivery given up on after its last attempt (the CLI shows and replays it)."""

    id: str
    endpoint_id: str
    player_id: str
    body: str
    attempts: int
    last_error: str
    at_ms: int
