"""What the server does over HTTP, declared in the OpenAPI document where Litestar cannot see it.

Litestar documents each route from its signature; the behaviour that lives in the shared
helpers (`negotiation`, `problems`, the view's ETag, the stream's messages) is declared here,
once for every operation it applies to:

- MessagePack bodies (`application/msgpack`) beside JSON, in requests and in replies;
- the view's conditional GET: `ETag` on 200, `If-None-Match`, 304 Not Modified;
- `Retry-After` on every 429 and 503, and on the 409 of a join refused for a rematch's kept
  seats (`seat.reserved_for_rematch`);
- every error as an RFC 9457 problem, the ones any request may meet included (413, 500);
- the stream's messages: `openapi_stream`.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from service.shared.settings import Settings

from .negotiation import JSON, MSGPACK, PROBLEM_JSON
from .openapi_games import ref

# Operations whose replies follow the client's Accept (negotiation.reply / pre_encoded).
NEGOTIATED_PREFIX = "/games"
VIEW_OPERATION = "getView"
STREAM_OPERATION = "streamViews"
PROBLEM = ref("Problem")
RETRY_AFTER = {
    "description": "Seconds to wait before retrying.",
    "schema": {"type": "integer", "minimum": 1},
}
# A MessagePack request body is the JSON body's message, encoded in MessagePack. It is
# declared as bytes: generators (openapi-python-client) then offer it as raw bytes beside the
# typed JSON body, where the same schema under both types makes them send JSON as MessagePack.
MSGPACK_BODY = {
    "type": "string",
    "format": "binary",
    "contentMediaType": MSGPACK,
    "description": "The message of the JSON body (same schema), encoded in MessagePack.",
}
ETAG = {
    "description": 'The game\'s version as a strong entity tag ("12"): send it back in '
    "If-None-Match.",
    "schema": {"type": "string"},
}
IF_NONE_MATCH = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "ETags of views the client holds: 304 Not Modified if the game's version "
    "is among them (`*` matches any).",
    "schema": {"type": "string"},
}


# Operations whose 409 may say when to retry (a rematch keeps its seats for a while).
RETRY_AFTER_CONFLICTS = frozenset({"joinGame"})
# Operations whose body may be left out (Litestar declares every body required).
OPTIONAL_BODIES = frozenset({"resignSeat"})


def declare_http(document: dict[str, Any]) -> None:
    """Add the HTTP behaviour of every operation to `document`."""
    for path, item in document["paths"].items():
        for operation in item.values():
            negotiated = path.startswith(NEGOTIATED_PREFIX) or "/games" in path
            _declare_bodies(operation, negotiated and not _is(operation, STREAM_OPERATION))
            _declare_problems(operation)
            optional = any(_is(operation, name) for name in OPTIONAL_BODIES)
            if optional and "requestBody" in operation:
                operation["requestBody"]["required"] = False
            if _is(operation, VIEW_OPERATION):
                _declare_conditional_get(operation)


def declare_bounds(document: dict[str, Any], settings: Settings) -> None:
    """The upper bounds of query parameters the server enforces (service.api.limits), as
    configured: a value past them is a 400 problem."""
    bounds = {
        ("listOpenGames", "limit"): settings.max_lobby_page,
        ("listEvents", "limit"): settings.max_events_page,
        ("submitCommand", "wait"): settings.max_wait_s,
        ("getCommandOutcome", "wait"): settings.max_wait_s,
        ("getTurn", "wait"): settings.max_wait_s,
        ("startGame", "wait"): settings.max_wait_s,
        ("cancelGame", "wait"): settings.max_wait_s,
        ("resignSeat", "wait"): settings.max_wait_s,
    }
    for item in document["paths"].values():
        for operation in item.values():
            for parameter in operation.get("parameters", []):
                for (operation_id, name), bound in bounds.items():
                    if parameter["name"] == name and _is(operation, operation_id):
                        parameter["schema"]["maximum"] = bound


def _is(operation: dict[str, Any], operation_id: str) -> bool:
    """Whether `operation` is the operation `operation_id` or a game's copy of it."""
    found: str = operation["operationId"]
    return found == operation_id or found.endswith(operation_id[:1].upper() + operation_id[1:])


def _declare_bodies(operation: dict[str, Any], negotiated: bool) -> None:
    body = operation.get("requestBody", {}).get("content", {})
    if JSON in body:
        body[MSGPACK] = {"schema": MSGPACK_BODY}
    if not negotiated:
        return
    for status, response in operation["responses"].items():
        content = response.get("content", {})
        if status.startswith("2") and JSON in content:
            content[MSGPACK] = content[JSON]
            response.setdefault("headers", {})["Vary"] = {
                "description": "Replies differ by Accept (JSON or MessagePack) and, for a "
                "seat's reads, by Authorization.",
                "schema": {"type": "string"},
            }


def _declare_problems(operation: dict[str, Any]) -> None:
    responses = operation["responses"]
    if "requestBody" in operation:
        responses.setdefault("400", _problem(400))
        responses.setdefault("413", _problem(413))
        responses.setdefault("415", _problem(415))  # neither JSON nor MessagePack in UTF-8
    responses.setdefault("406", _problem(406))  # an Accept that allows nothing offered
    responses.setdefault("500", _problem(500))
    conflicts = any(_is(operation, name) for name in RETRY_AFTER_CONFLICTS)
    retrying = ("429", "503", "409") if conflicts else ("429", "503")
    for status, response in responses.items():
        if status in retrying:
            response.setdefault("headers", {})["Retry-After"] = RETRY_AFTER


def _problem(status: int) -> dict[str, Any]:
    return {
        "description": f"{HTTPStatus(status).phrase} (RFC 9457 problem; switch on `code`)",
        "content": {PROBLEM_JSON: {"schema": PROBLEM}},
    }


def _declare_conditional_get(operation: dict[str, Any]) -> None:
    operation.setdefault("parameters", []).append(IF_NONE_MATCH)
    responses = operation["responses"]
    responses["200"].setdefault("headers", {})["ETag"] = ETAG
    responses["304"] = {
        "description": "Not Modified: the view is the one the client holds (If-None-Match).",
        "headers": {"ETag": ETAG},
    }
