"""A route that takes no body refuses one: a POST to start, cancel, resign, rematch or for a
stream ticket carrying a body is a client that meant another route or thinks it sends
something it does not; nothing it sent would be read, so it is told (415) rather than
answered as if heard."""

from __future__ import annotations

from typing import Any

from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler

from service.shared.errors import ServiceError

BODY_NOT_ACCEPTED = "request.body_not_accepted"
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Whether each route function takes a body (its `data` parameter), worked out once per route.
_TAKES_BODY: dict[Any, bool] = {}


def _takes_body(handler: BaseRouteHandler) -> bool:
    known = _TAKES_BODY.get(handler.fn)
    if known is None:
        known = _TAKES_BODY[handler.fn] = "data" in handler.parsed_fn_signature.parameters
    return known


def _has_body(connection: ASGIConnection[Any, Any, Any, Any]) -> int | None:
    """The body's announced length when it has one (-1: chunked, length unknown), else None."""
    headers = connection.headers
    length = headers.get("content-length")
    if length is not None:
        return int(length) if length.isdigit() and int(length) > 0 else None
    return -1 if "transfer-encoding" in headers else None


async def bodyless_guard(
    connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler
) -> None:
    """Refuse (415) a request with a body to a route that takes none (an empty body, with or
    without a Content-Type, is no body). A coroutine function: Litestar runs a plain function
    guard in a worker thread."""
    method = connection.scope.get("method")
    if method not in _BODY_METHODS or _takes_body(handler):
        return
    length = _has_body(connection)
    if length is None:
        return
    size = "a body" if length < 0 else f"a body of {length} bytes"
    raise ServiceError(
        BODY_NOT_ACCEPTED,
        f"{method} {connection.url.path} takes no body; this request came "
        f"with {size}: send it without one",
        status=415,
    )
