"""The operator's webhook endpoints over HTTP: register, list, remove. Every request carries
the admin credential (`Authorization: Bearer <SKALD_ADMIN_TOKEN>`); with none configured the
admin API refuses everything (403 `admin.disabled`)."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, delete, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from contracts.webhooks import CreateEndpointRequest, Endpoint, EndpointList
from service.facade.skald import Skald
from service.facade.webhook_side import WebhookAdmin
from service.shared.errors import Unavailable

from ..auth import bearer_token
from ..docs import problems
from ..negotiation import reply
from .games import options_route
from .players import NO_STORE

TAGS = ["admin"]


def admin(skald: Skald, request: Request[Any, Any, Any]) -> WebhookAdmin:
    """The webhook operations, once the request proved the admin credential."""
    if skald.webhooks is None:
        raise Unavailable("webhooks.off", "webhooks are not configured")
    skald.webhooks.check_admin(bearer_token(request))
    return skald.webhooks


@post(
    "/admin/webhooks",
    operation_id="createWebhookEndpoint",
    summary="Register a webhook endpoint",
    description="Every notification of the given kinds (all when none are named) is POSTed "
    "to `url`, signed per Standard Webhooks with the endpoint's secret (`whsec_...`, made "
    "when not given, shown only in this reply). A `url` whose host is, or resolves to, a "
    "private, loopback or link-local address is refused (422 `webhook.private_address`; a "
    "name that does not resolve, 422 `webhook.host_unresolved`) unless the server allows "
    "them. Needs the admin credential.",
    tags=TAGS,
    status_code=201,
    responses=problems(400, 401, 403, 413, 415, 422, 503),
)
async def create_webhook_endpoint(
    request: Request[Any, Any, Any],
    skald: NamedDependency[Skald],
    data: JSONBody[CreateEndpointRequest],
) -> Response[Endpoint]:
    """Register an endpoint."""
    added = await admin(skald, request).add(data.url, list(data.kinds), data.secret)
    return reply(request, added, 201, NO_STORE)


@get(
    "/admin/webhooks",
    operation_id="listWebhookEndpoints",
    summary="The registered webhook endpoints",
    description="Without their secrets. Needs the admin credential.",
    tags=TAGS,
    responses=problems(401, 403, 503),
)
async def list_webhook_endpoints(
    request: Request[Any, Any, Any], skald: NamedDependency[Skald]
) -> Response[EndpointList]:
    """Every endpoint."""
    return reply(request, await admin(skald, request).list(), 200, NO_STORE)


@delete(
    "/admin/webhooks/{endpoint_id:str}",
    operation_id="deleteWebhookEndpoint",
    summary="Remove a webhook endpoint",
    description="Its pending deliveries are dropped. Needs the admin credential.",
    tags=TAGS,
    status_code=204,
    responses=problems(400, 401, 403, 404, 503),
)
async def delete_webhook_endpoint(
    request: Request[Any, Any, Any], skald: NamedDependency[Skald], endpoint_id: FromPath[str]
) -> None:
    """Unregister an endpoint."""
    await admin(skald, request).remove(endpoint_id)


# Two handlers share /admin/webhooks: OPTIONS names both methods (Litestar's own would not).
webhooks_options = options_route("/admin/webhooks", create_webhook_endpoint, list_webhook_endpoints)
