"""A seat's WebSocket frames are checked as request bodies are: size, UTF-8, JSON, depth, type."""

from __future__ import annotations

import json
from typing import Any

import pytest

from service.api.socket_channel import Hello, SocketCommand, parse_frame
from service.shared.errors import ServiceError

MAX_BYTES = 4096
MAX_DEPTH = 5


def nested(levels: int) -> Any:
    """A value nesting `levels` arrays (0: a plain number)."""
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


def command_frame(payload: Any) -> str:
    return json.dumps({"type": "command", "command_id": "c1", "command": {"move": payload}})


def refusal(data: str | bytes) -> tuple[int, str]:
    with pytest.raises(ServiceError) as refused:
        parse_frame(data, MAX_BYTES, MAX_DEPTH)
    return refused.value.status, refused.value.code


def test_a_command_frame_and_a_hello_parse_to_their_types() -> None:
    frame = parse_frame(command_frame(3), MAX_BYTES, MAX_DEPTH)
    assert frame == SocketCommand("c1", {"move": 3})
    hello = parse_frame(b'{"type":"hello","token":"t","after":4}', MAX_BYTES, MAX_DEPTH)
    assert hello == Hello(token="t", after=4)


def test_a_frame_nesting_up_to_the_limit_parses_and_one_level_more_is_refused() -> None:
    # The frame is one level, its command the second, the move's arrays the rest.
    at_limit = command_frame(nested(MAX_DEPTH - 2))
    assert isinstance(parse_frame(at_limit, MAX_BYTES, MAX_DEPTH), SocketCommand)
    assert refusal(command_frame(nested(MAX_DEPTH - 1))) == (400, "request.too_deep")


def test_a_too_deep_frame_of_no_known_type_is_refused_for_its_depth_first() -> None:
    deep = json.dumps({"type": "teleport", "to": nested(MAX_DEPTH + 3)})
    assert refusal(deep) == (400, "request.too_deep")
    assert refusal(json.dumps({"type": "teleport"})) == (400, "socket.bad_frame")


def test_a_frame_far_deeper_than_any_limit_is_refused_without_crashing() -> None:
    assert refusal("[" * 2000 + "]" * 2000) == (400, "request.too_deep")
    deep_command = '{"type":"command","command_id":"c1","command":{"move":%s}}'
    assert refusal(deep_command % ("[" * 1900 + "]" * 1900)) == (400, "request.too_deep")


def test_malformed_json_and_bytes_that_are_not_utf8_get_the_bodys_problems() -> None:
    assert refusal("{not json") == (400, "request.malformed")
    assert refusal(b'{"type":"hello","token":"\xff\xfe"}') == (400, "request.not_utf8")


def test_a_frame_over_the_size_limit_is_a_413() -> None:
    assert refusal(command_frame("x" * MAX_BYTES)) == (413, "request.too_large")


def test_a_frame_naming_a_key_twice_is_refused_as_a_body_would_be() -> None:
    twice = '{"type": "command", "command_id": "a", "command_id": "b", "command": {}}'
    assert refusal(twice) == (400, "request.duplicate_key")
    assert refusal('{"type": "hello", "token": "t", "after": 1, "after": 2}') == (
        400,
        "request.duplicate_key",
    )
    # A colon inside a string is no repeated key
    assert isinstance(parse_frame(command_frame("a:b"), MAX_BYTES, MAX_DEPTH), SocketCommand)
