"""A query parameter given twice is refused: every parameter of the API takes one value, and
which of two values a server reads is a guess a client should not have to make."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler

from service.shared.errors import ServiceError

QUERY_REPEATED = "request.query_repeated"


async def single_query_guard(
    connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler
) -> None:
    """Refuse (400) a request whose query string names a parameter more than once.

    A coroutine function: Litestar runs a plain function guard in a worker thread."""
    raw: bytes = connection.scope.get("query_string", b"")
    if b"&" not in raw:
        return
    seen: set[str] = set()
    for name, _ in parse_qsl(raw.decode("latin-1"), keep_blank_values=True):
        if name in seen:
            raise ServiceError(
                QUERY_REPEATED,
                f"the query parameter {name!r} is given more than once; give it once",
                status=400,
                details={"parameter": name},
            )
        seen.add(name)
