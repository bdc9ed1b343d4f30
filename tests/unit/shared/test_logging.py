"""Request logging: one JSON line per request, request ids honoured or made, no secrets."""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import pytest
import structlog
from litestar import Litestar, Request, get
from litestar.params import FromPath
from litestar.testing import TestClient

from service.shared.logging import (
    RequestLogMiddleware,
    accepted_request_id,
    log_fields,
)


def lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]


@get("/games/{game_id:str}/thing")
async def thing(request: Request[Any, Any, Any], game_id: FromPath[str]) -> str:
    log_fields(request.scope).update(command_id="c-1", seat=2)
    return "ok"


def test_each_request_is_one_json_line_with_its_fields(log_output: io.StringIO) -> None:
    # Given an app wrapped in the request log
    app: Any = RequestLogMiddleware(Litestar([thing], logging_config=None))
    # When a request comes with a bearer token and a request id
    with TestClient(app) as client:
        response = client.get(
            "/games/g-1/thing",
            headers={"authorization": "Bearer s3cret-token", "x-request-id": "req-42"},
        )
    # Then one line names it, with the handler's fields, and no token anywhere
    requests = [line for line in lines(log_output) if line["event"] == "request"]
    assert len(requests) == 1
    line = requests[0]
    assert line["method"] == "GET"
    assert line["path"] == "/games/g-1/thing"
    assert line["route"] == "/games/{game_id}/thing"
    assert (line["game_id"], line["command_id"], line["seat"]) == ("g-1", "c-1", 2)
    assert line["status"] == 200
    assert line["request_id"] == "req-42"
    assert line["duration_ms"] >= 0
    assert "s3cret-token" not in log_output.getvalue()
    assert response.headers["x-request-id"] == "req-42"


def test_unknown_routes_are_logged_too(log_output: io.StringIO) -> None:
    app: Any = RequestLogMiddleware(Litestar([thing], logging_config=None))
    with TestClient(app) as client:
        response = client.get("/nowhere")
    (line,) = [line for line in lines(log_output) if line["event"] == "request"]
    assert line["status"] == 404 == response.status_code
    assert len(line["request_id"]) == 32  # generated: a uuid4 in hex
    assert response.headers["x-request-id"] == line["request_id"]


def test_fields_named_like_secrets_are_dropped_from_any_log_line(
    log_output: io.StringIO,
) -> None:
    # Given code that (by mistake) logs a token
    structlog.get_logger("anything").info("oops", token="tok-123", seat=1)
    logging.getLogger("stdlib").info("plain %s", "message")
    # Then the token never reaches the output, the rest does, and every line is JSON
    output = lines(log_output)
    assert "tok-123" not in log_output.getvalue()
    assert output[0]["seat"] == 1
    assert output[1]["event"] == "plain message"


@pytest.mark.parametrize(
    "supplied",
    [None, b"", b"has space", b"x" * 129, b"line\nbreak", "é".encode()],
)
def test_untame_request_ids_are_replaced(supplied: bytes | None) -> None:
    generated = accepted_request_id(supplied)
    assert generated != (supplied or b"").decode("latin-1")
    assert len(generated) == 32


def test_tame_request_ids_are_kept() -> None:
    assert accepted_request_id(b"abc-123_x.y:z") == "abc-123_x.y:z"
