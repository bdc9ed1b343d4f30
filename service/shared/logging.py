"""Structured logging: one JSON object per line, for every Skald process.

`configure_logging()` sets up structlog and routes the standard library's loggers (uvicorn, RQ,
redis) through the same JSON renderer, so a log shipper sees one format. `RequestLogMiddleware`
writes one line per HTTP request. Secrets never reach the output: a processor drops any field
whose name says it holds a token or credentials, whoever logged it.
"""

from __future__ import annotations

import logging
import re
import sys
import time
import uuid
from collections.abc import MutableMapping
from typing import Any, TextIO

import structlog
from structlog.types import EventDict, Processor, WrappedLogger

# Field names that may carry a secret; dropped from every log line (defence in depth: the code
# never logs a token on purpose, this makes sure a mistake cannot leak one either).
SECRET_FIELDS = frozenset({"token", "seat_token", "authorization", "password", "secret", "seed"})
REQUEST_ID_HEADER = b"x-request-id"
# A client-supplied request id is echoed into logs and headers, so only tame ones are kept.
_SAFE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
# The ASGI scope key under which handlers leave the fields of their request's log line.
LOG_FIELDS_SCOPE_KEY = "skald.log_fields"


def drop_secrets(_: WrappedLogger, __: str, event_dict: EventDict) -> EventDict:
    """A structlog processor that removes every field named like a secret."""
    for key in SECRET_FIELDS.intersection(event_dict):
        del event_dict[key]
    return event_dict


def configure_logging(level: str = "INFO", stream: TextIO | None = None) -> None:
    """Send structlog and standard-library logging to `stream` (stdout) as JSON lines."""
    shared: list[Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        drop_secrets,
    ]
    structlog.configure(
        processors=[
            # First: a line below the level costs a level check, not the whole chain.
            structlog.stdlib.filter_by_level,
            *shared,
            structlog.processors.format_exc_info,
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared,
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
    )
    handler = logging.StreamHandler(stream or sys.stdout)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    # Requests are logged once by RequestLogMiddleware; uvicorn's access log would repeat them.
    logging.getLogger("uvicorn.access").disabled = True
    for name in ("uvicorn", "uvicorn.error", "rq.worker"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True


def accepted_request_id(raw: bytes | None) -> str:
    """The client's X-Request-ID when it is a tame token, otherwise a fresh one."""
    if raw:
        candidate = raw.decode("latin-1")
        if _SAFE_REQUEST_ID.fullmatch(candidate):
            return candidate
    return uuid.uuid4().hex


def log_fields(scope: Any) -> dict[str, Any]:
    """The fields a handler adds to its request's log line (game id, command id, seat...).

    `scope` is the request's ASGI scope (typed loosely: frameworks type it as a TypedDict).
    """
    state = scope.setdefault("state", {})
    fields: dict[str, Any] = state.setdefault(LOG_FIELDS_SCOPE_KEY, {})
    return fields


def request_id(scope: Any) -> str:
    """The id RequestLogMiddleware gave the request ("" outside that middleware)."""
    return str(scope.get("state", {}).get("request_id", ""))


class RequestLogMiddleware:
    """ASGI middleware: honours or assigns X-Request-ID and logs one JSON line per request.

    It wraps the whole application (not one route), so unknown paths are logged too. The line
    carries method, path, route, status, duration and request id, plus what the handler put in
    `log_fields(scope)`; headers are never logged, so neither is a bearer token.
    """

    def __init__(self, app: Any, logger_name: str = "skald.http") -> None:
        self.app = app
        self.log = structlog.get_logger(logger_name)

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        """Handle one ASGI connection."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        supplied = dict(scope.get("headers") or []).get(REQUEST_ID_HEADER)
        request_id = accepted_request_id(supplied)
        scope.setdefault("state", {})["request_id"] = request_id
        fields = log_fields(scope)
        status = 500

        async def send_with_request_id(message: MutableMapping[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [
                    *message.get("headers", []),
                    (REQUEST_ID_HEADER, request_id.encode("latin-1")),
                ]
            await send(message)

        started = time.perf_counter()
        with structlog.contextvars.bound_contextvars(request_id=request_id):
            try:
                await self.app(scope, receive, send_with_request_id)
            finally:
                line: dict[str, Any] = {
                    "method": scope["method"],
                    "path": scope["path"],
                    "route": scope.get("path_template"),
                    "game_id": (scope.get("path_params") or {}).get("game_id"),
                    "status": status,
                    "duration_ms": round((time.perf_counter() - started) * 1000, 3),
                }
                line.update(fields)
                self.log.info("request", **{k: v for k, v in line.items() if v is not None})
