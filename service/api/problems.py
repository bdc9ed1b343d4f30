"""Every error the API answers is an RFC 9457 problem (application/problem+json).

Each problem carries a stable machine `code` (the facade's, the domain's for refused commands,
or one of the API's own below) and a `detail` a person can act on. The `type` is `about:blank`:
the code, not a URL, is what clients switch on, and we publish no per-code pages to point at.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

import msgspec
import structlog
from litestar import Request, Response
from litestar.exceptions import (
    HTTPException,
    MethodNotAllowedException,
    NotFoundException,
    ValidationException,
)
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.types import ExceptionHandlersMap

from contracts.api import Problem
from service.adapters.redis_outage import REDIS_OUTAGE, is_outage
from service.shared.errors import (
    GameDamaged,
    RateLimited,
    RetryLater,
    ServiceError,
    Unauthorized,
    Unavailable,
)
from service.shared.logging import log_fields, request_id

from .negotiation import BODY_MALFORMED, PROBLEM_JSON

log = structlog.get_logger("skald.api")

# Codes of the API's own problems (the facade's and the domain's travel through unchanged).
REQUEST_MALFORMED = BODY_MALFORMED
REQUEST_INVALID = "request.invalid"
REQUEST_TOO_LARGE = "request.too_large"
ROUTE_NOT_FOUND = "route.not_found"
METHOD_NOT_ALLOWED = "method.not_allowed"
REDIS_UNAVAILABLE = "service.unavailable"
INTERNAL_ERROR = "internal.error"
# Seconds a client should wait before retrying while Redis is unreachable.
UNAVAILABLE_RETRY_S = 1.0
# Statuses outside http.HTTPStatus that the API answers with.
_PHRASES = {499: "Client Closed Request"}


def status_phrase(status: int) -> str:
    """The reason phrase of a status code (the problem's `title`)."""
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return _PHRASES.get(status, "Error")


def problem_response(
    request: Request[Any, Any, Any],
    status: int,
    code: str,
    detail: str,
    *,
    errors: list[dict[str, Any]] | None = None,
    details: Mapping[str, Any] | None = None,
    instance: str = "",
    headers: Mapping[str, str] | None = None,
) -> Response[bytes]:
    """A problem+json response; the code is also recorded on the request's log line."""
    log_fields(request.scope)["problem"] = code
    problem = Problem(
        type="about:blank",
        title=status_phrase(status),
        status=status,
        detail=detail,
        code=code,
        instance=instance,
        errors=errors or None,
        details=dict(details) if details else None,
        request_id=request_id(request.scope),
    )
    return Response(
        msgspec.json.encode(problem),
        status_code=status,
        media_type=PROBLEM_JSON,
        headers=dict(headers or {}),
    )


def retry_after(seconds: float) -> dict[str, str]:
    """A Retry-After header (whole seconds, at least one)."""
    return {"retry-after": str(max(1, math.ceil(seconds)))}


def _service_error(request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
    assert isinstance(exc, ServiceError)
    headers: dict[str, str] = {}
    if isinstance(exc, RateLimited | RetryLater | Unavailable):
        headers |= retry_after(exc.retry_after)
    if isinstance(exc, Unauthorized):
        # RFC 6750: tell the client which scheme to use.
        headers["www-authenticate"] = 'Bearer realm="skald", error="invalid_token"'
    if isinstance(exc, GameDamaged):
        # Served as a named problem, never as data: the operator must hear of it too.
        log.error("game.damaged", game_id=exc.game_id, damage=exc.damage)
    elif exc.status >= 500:
        log.warning("service.unavailable", code=exc.code, error=exc.message)
    return problem_response(
        request, exc.status, exc.code, exc.message, details=exc.details, headers=headers
    )


def _validation_error(request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
    assert isinstance(exc, ValidationException)
    errors = [dict(error) for error in (exc.extra or []) if isinstance(error, dict)]
    for error in errors:
        # Litestar reports an absent body as a KeyError on the `data` argument.
        if error.get("source") == "body" and error.get("message") == "'data'":
            error["message"] = "a request body is required (JSON or MessagePack)"
    reasons = "; ".join(_describe(error) for error in errors) or str(exc.detail)
    return problem_response(
        request, 400, REQUEST_INVALID, f"invalid request: {reasons}", errors=errors
    )


def _describe(error: Mapping[str, Any]) -> str:
    key, source, message = error.get("key"), error.get("source"), error.get("message")
    where = "body" if key == "data" else f"{source} field `{key}`" if key else str(source)
    return f"{where}: {message}"


def _too_large(limit: int) -> Any:
    def handler(request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
        detail = f"the request body is larger than the limit of {limit} bytes"
        return problem_response(request, 413, REQUEST_TOO_LARGE, detail)

    return handler


def _http_error(request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
    assert isinstance(exc, HTTPException)
    if isinstance(exc, NotFoundException):
        detail = f"no such resource: {request.method} {request.url.path}"
        return problem_response(request, 404, ROUTE_NOT_FOUND, detail)
    if isinstance(exc, MethodNotAllowedException):
        headers = {k: v for k, v in (exc.headers or {}).items() if k.lower() == "allow"}
        detail = f"{request.method} is not allowed on {request.url.path}"
        return problem_response(request, 405, METHOD_NOT_ALLOWED, detail, headers=headers)
    if exc.status_code >= 500:
        return _unexpected(request, exc)
    if exc.status_code == 400:
        # Litestar raises a bare 400 when the body does not parse (malformed JSON/MessagePack).
        return problem_response(request, 400, REQUEST_MALFORMED, f"malformed body: {exc.detail}")
    code = f"http.{exc.status_code}"
    return problem_response(request, exc.status_code, code, str(exc.detail), headers=exc.headers)


def _redis_down(request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
    # The facade maps Redis failures to Unavailable; this catches any that slip past it so a
    # Redis outage is always a 503 the client may retry, never a 500.
    log.warning("redis.unreachable", error=str(exc))
    detail = "the game store is unreachable; retry shortly"
    headers = retry_after(UNAVAILABLE_RETRY_S)
    return problem_response(request, 503, REDIS_UNAVAILABLE, detail, headers=headers)


def _unexpected(request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
    if is_outage(exc):  # one redis-py raises as something other than its own errors
        return _redis_down(request, exc)
    log.exception("request.failed", error_type=type(exc).__name__)
    detail = "an unexpected error occurred; quote the request id when reporting it"
    return problem_response(request, 500, INTERNAL_ERROR, detail)


def exception_handlers(max_body_bytes: int) -> ExceptionHandlersMap:
    """The handlers that turn every exception into a problem (most specific class wins)."""
    return {
        ServiceError: _service_error,
        ValidationException: _validation_error,
        RequestEntityTooLarge: _too_large(max_body_bytes),
        HTTPException: _http_error,
        **dict.fromkeys(REDIS_OUTAGE, _redis_down),
        Exception: _unexpected,
    }
