"""Content negotiation: JSON by default, MessagePack when the client sends or asks for it.

Request bodies: Litestar decodes a route's body in the one encoding the route declares (JSON
here). `NegotiatingRequest` reads a MessagePack body instead when its Content-Type says so,
so every route takes either encoding and validation (msgspec, into the same Structs) is shared.

Replies: `reply()` encodes a Struct in the type the client's Accept header prefers; with no
preference (`*/*` or no header) a MessagePack request gets a MessagePack reply. Problem details
are always `application/problem+json` (RFC 9457), so every client can read an error.
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import SerializationException
from litestar.serialization import decode_msgpack
from litestar.types import Serializer

JSON = "application/json"
MSGPACK = "application/msgpack"
PROBLEM_JSON = "application/problem+json"
# The MessagePack media types seen in the wild; all are accepted, the reply echoes the client's.
MSGPACK_TYPES = ("application/msgpack", "application/x-msgpack", "application/vnd.msgpack")
_OFFERED = [JSON, *MSGPACK_TYPES]


def is_msgpack(media_type: str) -> bool:
    """Whether a media type names MessagePack."""
    return media_type.lower() in MSGPACK_TYPES


class NegotiatingRequest(Request[Any, Any, Any]):
    """A Request whose body may be JSON or MessagePack, chosen by its Content-Type."""

    async def json(self) -> Any:
        """The decoded body: MessagePack when the Content-Type says so, JSON otherwise."""
        if is_msgpack(self.content_type[0]):
            # Litestar turns decode errors here into a 400, as it does for malformed JSON.
            body = await self.body()
            try:
                return decode_msgpack(body, target_type=Any)
            except UnicodeDecodeError as exc:
                # msgspec reports a string that is not UTF-8 this way, not as DecodeError.
                raise SerializationException(f"a MessagePack string is not UTF-8: {exc}") from None
        return await super().json()


def reply_media_type(request: Request[Any, Any, Any]) -> str:
    """The media type to answer `request` with (JSON or one of the MessagePack names)."""
    accept = request.headers.get("accept", "").strip()
    if not accept or accept == "*/*":
        sent = request.content_type[0]
        return sent.lower() if is_msgpack(sent) else JSON
    return request.accept.best_match(_OFFERED, default=JSON)


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
