"""A seat's WebSocket channel: the frames it reads and writes, independent of the server.

One connection carries a seat's commands and its live updates (docs/clients.md, "WebSocket
channel"). Every frame is a JSON object with a `type`:

client -> server
- `hello` (first, and only first): `token` (the seat token) or `ticket` (a stream ticket),
  optionally `after` (resume after this version, as Last-Event-ID) and `view` (`patch` or
  `whole`, as the stream's `?view=`);
- `command`: `command_id` and `command`, optionally `expected_version`, as the body of POST
  .../commands, optionally `wait` (seconds, bounded as `?wait=`): the outcome frame then
  comes once the command is decided.

server -> client
- `event`, `view`, `patch`: the live feed's messages (as the server-sent event stream's),
  `{"type", "version", "data"}` with `data` the same JSON the stream carries;
- `outcome`: a command's CommandOutcome (`queued`, `applied` or `refused`, as the HTTP reply);
- `problem`: an RFC 9457 problem, with `command_id` when it answers a command; after a problem
  in the `hello` the server closes the connection: 1013 (try again later) where HTTP answers
  503, 1008 otherwise, the problem's `code` as the close reason.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from contracts.api import CommandOutcome, ExpectedVersion, Problem
from service.facade.live import LiveMessage
from service.shared.errors import InvalidInput, ServiceError

from .negotiation import JSON, decode_body, refuse_deeper, refuse_repeated_keys
from .problems import status_phrase

# WebSocket close codes (RFC 6455 7.4; IANA's registry): a refused hello, a server going
# away, a service that cannot serve now (HTTP's 503: try again later).
CLOSE_POLICY = 1008
CLOSE_GOING_AWAY = 1001
CLOSE_TRY_AGAIN_LATER = 1013
FRAME_MALFORMED = "socket.bad_frame"
HELLO_EXPECTED = "socket.hello_expected"

_encode = msgspec.json.encode


class Hello(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="hello"):
    """The first frame: who the connection acts for, and where its feed starts."""

    token: str | None = None
    ticket: str | None = None
    after: int | None = None
    view: Literal["patch", "whole"] = "patch"


class SocketCommand(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="command"
):
    """A command for the connection's seat."""

    command_id: str
    command: dict[str, Any]
    wait: float = 0.0
    expected_version: ExpectedVersion | None = None


_CLIENT_FRAME = msgspec.json.Decoder(Hello | SocketCommand)
_JSON_TYPE = (JSON, {"charset": "utf-8"})


def parse_frame(data: str | bytes, max_bytes: int, max_depth: int) -> Hello | SocketCommand:
    """A client frame, checked as a request body is (size, depth, JSON), then by its type.

    Decoded once, by its type; only a frame that does not decode is decoded again as plain
    JSON, so that a malformed, non-UTF-8 or too deep frame gets the body's own problem."""
    raw = data.encode() if isinstance(data, str) else data
    if len(raw) > max_bytes:
        raise InvalidInput(
            "request.too_large",
            f"a frame is at most {max_bytes} bytes; this one was {len(raw)}",
            status=413,
            details={"max_bytes": max_bytes},
        )
    try:
        frame: Hello | SocketCommand = _CLIENT_FRAME.decode(raw)
    except (msgspec.DecodeError, RecursionError, UnicodeDecodeError) as error:
        decode_body(raw, _JSON_TYPE, max_depth)  # malformed JSON, too deep: the body's problems
        raise InvalidInput(
            FRAME_MALFORMED,
            f"not a frame of this channel: {error} (a `hello`, then `command` frames)",
            status=400,
        ) from error
    if isinstance(frame, SocketCommand):  # the frame is one level, its command the next
        refuse_deeper(frame.command, max_depth - 1)
    refuse_repeated_keys(raw, max_depth)
    return frame


def validate_hello(hello: Hello) -> None:
    """A hello names exactly one way in and a version to resume from that can exist."""
    if (hello.token is None) == (hello.ticket is None):
        raise InvalidInput(
            FRAME_MALFORMED, "a hello carries either `token` or `ticket`", status=400
        )
    if hello.after is not None and hello.after < 0:
        raise InvalidInput(FRAME_MALFORMED, "`after` is a version: 0 or more", status=400)


def close_code(error: ServiceError) -> int:
    """The close code ending a connection refused with `error`: 1013 (try again later) where
    HTTP answers 503, else 1008 (policy violation)."""
    return CLOSE_TRY_AGAIN_LATER if error.status == 503 else CLOSE_POLICY


def live_frame(message: LiveMessage) -> bytes:
    """A feed message as a frame; its JSON is spliced in as it was encoded, never re-encoded."""
    head = b'{"type":"%s","version":%d,"data":' % (message.kind.encode(), message.version)
    return head + message.data + b"}"


def outcome_frame(outcome: CommandOutcome) -> bytes:
    """A command's outcome as a frame."""
    return b'{"type":"outcome","outcome":' + _encode(outcome) + b"}"


def problem_frame(error: ServiceError, request_id: str, command_id: str | None = None) -> bytes:
    """A service error as a problem frame (with the command it answers, if any)."""
    problem = Problem(
        type="about:blank",
        title=status_phrase(error.status),
        status=error.status,
        detail=error.message,
        code=error.code,
        details=error.details or None,
        request_id=request_id,
    )
    frame: dict[str, Any] = {"type": "problem", "problem": problem}
    if command_id is not None:
        frame["command_id"] = command_id
    return _encode(frame)
