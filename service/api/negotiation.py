"""Content negotiation: JSON by default, MessagePack when the client sends or asks for it.

Request bodies: `NegotiatingRequest` decodes a body itself, as JSON or MessagePack by its
Content-Type, so every route takes either encoding and validation (msgspec, into the same
Structs) is shared. Any other Content-Type is a 415 problem; a body that is not UTF-8, that
does not parse, that nests deeper than the `max_body_depth` setting or that names a key twice
in one JSON object is a 400 problem, each with its own code. A client that hangs up while
its body is read gets `ClientClosedRequest` (status 499, nginx's convention): the request
is logged and counted as that, not as a 500.

Replies: `reply()` encodes a Struct in the type the client's Accept header prefers (RFC 9110
quality values: `q=0` refuses a type); with no preference (`*/*` or no header) a MessagePack
request gets a MessagePack reply. `accept_guard` answers 406 before a route runs when the
route offers nothing the Accept header allows. Problem details are always
`application/problem+json` (RFC 9457), so every client can read an error.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.connection import ASGIConnection
from litestar.connection.base import empty_receive, empty_send
from litestar.datastructures.headers import MediaTypeHeader
from litestar.handlers import BaseRouteHandler
from litestar.types import Empty, Receive, Scope, Send, Serializer
from litestar.utils.empty import value_or_default
from litestar.utils.scope.state import ScopeState

from service.shared.errors import ClientClosedRequest, InvalidInput, ServiceError

JSON = "application/json"
MSGPACK = "application/msgpack"
PROBLEM_JSON = "application/problem+json"
# The MessagePack media types seen in the wild; all are accepted, the reply echoes the client's.
MSGPACK_TYPES = ("application/msgpack", "application/x-msgpack", "application/vnd.msgpack")
OFFERED = (JSON, *MSGPACK_TYPES)
# The media types a route offers when it says nothing (`opt={"offers": (...)}` overrides).
OFFERS_KEY = "offers"
DEFAULT_MAX_BODY_DEPTH = 32
MAX_BODY_DEPTH_STATE_KEY = "max_body_depth"

UNSUPPORTED_MEDIA_TYPE = "request.unsupported_media_type"
NOT_ACCEPTABLE = "request.not_acceptable"
BODY_NOT_UTF8 = "request.not_utf8"
BODY_TOO_DEEP = "request.too_deep"
BODY_MALFORMED = "request.malformed"
BODY_DUPLICATE_KEY = "request.duplicate_key"


def is_msgpack(media_type: str) -> bool:
    """Whether a media type names MessagePack."""
    return media_type.lower() in MSGPACK_TYPES


def _no_extensions(code: int, data: memoryview) -> Any:
    raise msgspec.DecodeError(f"MessagePack extension types (here {code}) are not accepted")


def _deeper_than(value: Any, max_depth: int) -> bool:
    """Whether `value` nests arrays and objects more than `max_depth` levels (no recursion)."""
    return _measure(value, max_depth) < 0


def _measure(value: Any, max_depth: int) -> int:
    """The members of every object in `value` (-1 when it nests arrays and objects more than
    `max_depth` levels), in one walk without recursion."""
    members = 0
    stack = [(value, 1)] if isinstance(value, dict | list) else []
    while stack:
        item, depth = stack.pop()
        if depth > max_depth:
            return -1
        children: Iterable[Any]
        if isinstance(item, dict):
            members += len(item)
            children = item.values()
        else:
            children = item
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return members


def refuse_repeated_keys(body: bytes, max_depth: int) -> None:
    """Refuse (400) a JSON text already decoded into a typed message (a WebSocket frame, at
    most `max_depth` deep) that names a key twice in one object."""
    if body.count(b":") > _measure(msgspec.json.decode(body), max_depth):
        _refuse_duplicate_keys(body)


def _refuse_duplicate_keys(body: bytes) -> None:
    """Refuse (400) a JSON body naming a key twice in one object (msgspec keeps the last).

    Run only when the body has more colons than its decoded objects have members: each member
    has one colon, so equal counts prove no key was dropped; more means a colon in a string or
    a repeated key, and this slower parse tells them apart."""

    def unique(pairs: list[tuple[str, Any]]) -> None:
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise InvalidInput(
                    BODY_DUPLICATE_KEY,
                    f"the key {key!r} appears more than once in one object of the body; "
                    "which value was meant is a guess: give it once",
                    status=400,
                    details={"key": key},
                )
            seen.add(key)

    json.loads(body, object_pairs_hook=unique)


def refuse_deeper(value: Any, max_depth: int) -> None:
    """Refuse (400) a decoded value nesting arrays and objects more than `max_depth` levels."""
    if _deeper_than(value, max_depth):
        raise _too_deep(max_depth)


def _too_deep(max_depth: int) -> InvalidInput:
    return InvalidInput(
        BODY_TOO_DEEP,
        f"the body nests arrays and objects more than {max_depth} levels deep",
        status=400,
        details={"max_depth": max_depth},
    )


def decode_body(body: bytes, content_type: tuple[str, dict[str, str]], max_depth: int) -> Any:
    """A request body decoded by its Content-Type; a 4xx ServiceError when it cannot be."""
    media, params = content_type[0].lower(), content_type[1]
    charset = params.get("charset", "utf-8").lower()
    if (media != JSON and not is_msgpack(media)) or charset not in ("utf-8", "utf8"):
        raise ServiceError(
            UNSUPPORTED_MEDIA_TYPE,
            f"a request body is JSON ({JSON}) or MessagePack ({MSGPACK}), in UTF-8; "
            f"this one was sent as {media or 'no Content-Type'!r}",
            status=415,
            details={"supported": list(OFFERED)},
        )
    try:
        if is_msgpack(media):
            value = msgspec.msgpack.decode(body, ext_hook=_no_extensions)
        else:
            value = msgspec.json.decode(body)
    except UnicodeDecodeError as exc:
        raise InvalidInput(
            BODY_NOT_UTF8, f"a string in the body is not valid UTF-8: {exc.reason}", status=400
        ) from None
    except RecursionError:
        raise _too_deep(max_depth) from None  # far deeper than any limit
    except msgspec.DecodeError as exc:
        raise InvalidInput(BODY_MALFORMED, f"malformed body: {exc}", status=400) from None
    members = _measure(value, max_depth)
    if members < 0:
        raise _too_deep(max_depth)
    if not is_msgpack(media) and body.count(b":") > members:
        _refuse_duplicate_keys(body)
    return value


class NegotiatingRequest(Request[Any, Any, Any]):
    """A Request whose body may be JSON or MessagePack, chosen by its Content-Type."""

    def __init__(
        self, scope: Scope, receive: Receive = empty_receive, send: Send = empty_send
    ) -> None:
        async def watched_receive() -> Any:
            message = await receive()
            if message["type"] == "http.disconnect":
                # The client hung up mid-body: its fault, not ours (never logged as a 500).
                raise ClientClosedRequest()
            return message

        super().__init__(scope, watched_receive, send)

    async def json(self) -> Any:
        """The decoded body (JSON or MessagePack); a 4xx problem when it cannot be."""
        if self._json is Empty:
            state = ScopeState.from_scope(self.scope)
            if state.json is not Empty:
                self._json = state.json
            else:
                max_depth = value_or_default(
                    self.app.state.get(MAX_BODY_DEPTH_STATE_KEY, Empty), DEFAULT_MAX_BODY_DEPTH
                )
                self._json = state.json = decode_body(
                    await self.body(), self.content_type, max_depth
                )
        return self._json


def _quality(q: str | None) -> float:
    if q is None:
        return 1.0
    try:
        return min(1.0, max(0.0, float(q)))
    except ValueError:
        return 1.0


@functools.lru_cache(maxsize=512)
def negotiate(accept: str, offered: tuple[str, ...]) -> str | None:
    """The offered media type the Accept header ranks highest (RFC 9110 section 12.5.1):
    each type takes the quality of the most specific range matching it, `q=0` refuses it, and
    ties go to the earlier offer. None when nothing offered is acceptable."""
    ranges = [MediaTypeHeader(part) for part in accept.split(",") if part.strip()]
    best, best_quality = None, 0.0
    for media in offered:
        maintype, _, subtype = media.partition(";")[0].strip().lower().partition("/")
        specificity, quality = -1, 0.0
        for accepted in ranges:
            if accepted.maintype == "*":
                rank = 0
            elif accepted.maintype != maintype:
                continue
            elif accepted.subtype == "*":
                rank = 1
            elif accepted.subtype != subtype:
                continue
            else:
                rank = 2
            if rank > specificity:
                specificity, quality = rank, _quality(accepted.params.get("q"))
        if quality > best_quality:
            best, best_quality = media, quality
    return best


def route_offers(handler: BaseRouteHandler) -> tuple[str, ...]:
    """The media types a route can answer with."""
    offers: tuple[str, ...] = handler.opt.get(OFFERS_KEY, OFFERED)
    return offers


async def accept_guard(
    connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler
) -> None:
    """Refuse (406) a request whose Accept header allows nothing the route offers.

    A coroutine function: Litestar runs a plain function guard in a worker thread, a thread
    hop on every request."""
    accept = connection.headers.get("accept", "").strip()
    if not accept:
        return
    offers = route_offers(handler)
    if negotiate(accept, offers) is None:
        raise ServiceError(
            NOT_ACCEPTABLE,
            f"this resource comes as {', '.join(offers)}; the Accept header allows none of them",
            status=406,
            details={"available": list(offers)},
        )


def reply_media_type(request: Request[Any, Any, Any]) -> str:
    """The media type to answer `request` with (JSON or one of the MessagePack names)."""
    accept = request.headers.get("accept", "").strip()
    if not accept or accept == "*/*":
        sent = request.content_type[0]
        return sent.lower() if is_msgpack(sent) else JSON
    return negotiate(accept, OFFERED) or JSON


def wants_msgpack(request: Request[Any, Any, Any]) -> bool:
    """Whether the reply to `request` should be MessagePack."""
    return is_msgpack(reply_media_type(request))


class NegotiatedResponse(Response[Any]):
    """A Response that can render MessagePack under any of its media type names."""

    def render(
        self, content: Any, media_type: str, enc_hook: Serializer = msgspec.to_builtins
    ) -> bytes:
        """Encode `content` for `media_type` (bytes pass through untouched)."""
        if not isinstance(content, bytes) and is_msgpack(media_type):
            return msgspec.msgpack.encode(content, enc_hook=enc_hook)
        return super().render(content, media_type, enc_hook)


def pre_encoded(
    request: Request[Any, Any, Any], body: bytes, headers: dict[str, str]
) -> Response[Any]:
    """A response carrying bytes already encoded in the client's preferred media type."""
    return Response(body, media_type=reply_media_type(request), headers=headers)


def reply(
    request: Request[Any, Any, Any],
    content: Any,
    status_code: int = 200,
    headers: dict[str, str] | None = None,
) -> NegotiatedResponse:
    """A response carrying `content` in the encoding the client prefers."""
    return NegotiatedResponse(
        content,
        status_code=status_code,
        media_type=reply_media_type(request),
        headers={"vary": "Accept", **(headers or {})},
    )
