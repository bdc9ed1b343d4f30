"""Bad bodies, media types, ids and hang-ups: each a clean 4xx problem (or a 499), never a 500.

The bodies are those an independent probe answered 500 to: invalid UTF-8 inside a JSON or
MessagePack string, and arrays nested about 990 levels deep in a 2 kB body.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from service.api.routes.commands import command_path

from .conftest import Api, bearer, stream_version, turn
from .test_problems import assert_problem

pytestmark = pytest.mark.anyio
MOVE = {"type": "Move", "steps": 1}
DEPTH = 990


def nested_json(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def nested_msgpack(depth: int) -> bytes:
    return b"\x91" * depth + b"\xc0"  # an array of one element, `depth` times, around nil


def bad_utf8_json(route: str) -> bytes:
    field = {"create": b'"game"', "join": b'"name"', "submit": b'"command_id"'}[route]
    rest = {"create": b', "config": {}', "join": b"", "submit": b', "command": {}'}[route]
    return b"{" + field + b': "r\xffce"' + rest + b"}"


def bad_utf8_msgpack(route: str) -> bytes:
    # {"<field>": <a 4-byte string holding 0xff>}
    field = {"create": b"game", "join": b"name", "submit": b"command_id"}[route]
    return b"\x81" + bytes([0xA0 | len(field)]) + field + b"\xa4r\xffce"


async def route_url(api: Api, route: str) -> tuple[str, dict[str, str], str]:
    """(url, auth headers, game id) of a route that takes a body."""
    game_id, tokens = await api.seated_game()
    if route == "create":
        return "/games", {}, game_id
    if route == "join":
        return f"/games/{await api.new_game()}/seats", {}, game_id
    return f"/games/{game_id}/commands", bearer(tokens[0]), game_id


BODIES: list[tuple[str, str, Callable[[str], bytes], str]] = [
    ("json utf-8", "application/json", bad_utf8_json, "request.not_utf8"),
    ("msgpack utf-8", "application/msgpack", bad_utf8_msgpack, "request.not_utf8"),
    ("json deep", "application/json", lambda _: nested_json(DEPTH), "request.too_deep"),
    ("msgpack deep", "application/msgpack", lambda _: nested_msgpack(DEPTH), "request.too_deep"),
    ("json 33 deep", "application/json", lambda _: nested_json(33), "request.too_deep"),
]


@pytest.mark.parametrize("route", ["create", "join", "submit"])
@pytest.mark.parametrize(
    ("name", "media_type", "body", "code"), BODIES, ids=[case[0] for case in BODIES]
)
async def test_bodies_a_probe_got_500_for_are_400_problems_that_change_nothing(
    api: Api, route: str, name: str, media_type: str, body: Callable[[str], bytes], code: str
) -> None:
    url, headers, game_id = await route_url(api, route)
    before = await stream_version(api, game_id)
    response = await api.client.post(
        url, content=body(route), headers={**headers, "content-type": media_type}
    )
    problem = assert_problem(response, 400, code)
    if code == "request.too_deep":
        assert problem["details"] == {"max_depth": api.settings.max_body_depth}
    assert await stream_version(api, game_id) == before


async def test_a_body_nested_to_the_limit_is_decoded(api: Api) -> None:
    # 32 levels: the config object, then arrays down to the limit (the game then refuses it)
    config = {"players": 2, "x": msgspec.json.decode(nested_json(api.settings.max_body_depth - 2))}
    response = await api.client.post("/games", json={"game": "race", "config": config})
    assert response.json()["code"] != "request.too_deep"
    assert response.status_code == 422


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin-1"],
)
async def test_a_body_of_another_media_type_is_415_and_changes_nothing(
    api: Api, content_type: str
) -> None:
    game_id, tokens = await api.seated_game()
    before = await stream_version(api, game_id)
    response = await api.client.post(
        f"/games/{game_id}/commands",
        content=msgspec.json.encode({"command_id": "c", "command": MOVE}),
        headers={
            **bearer(tokens[(await turn(api, game_id))["to_act"][0]]),
            "content-type": content_type,
        },
    )
    problem = assert_problem(response, 415, "request.unsupported_media_type")
    assert "application/msgpack" in problem["details"]["supported"]
    assert await stream_version(api, game_id) == before


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("application/msgpack;q=0, application/json", "application/json"),
        ("application/*, application/json;q=0", "application/msgpack"),
        ("application/json;q=0.5, application/x-msgpack", "application/x-msgpack"),
        ("*/*;q=0.1, application/vnd.msgpack", "application/vnd.msgpack"),
        ("text/html, */*;q=0.01", "application/json"),
    ],
)
async def test_accept_quality_values_choose_the_reply(api: Api, accept: str, expected: str) -> None:
    game_id, _ = await api.seated_game()
    response = await api.client.get(f"/games/{game_id}/turn", headers={"accept": accept})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].split(";")[0] == expected


@pytest.mark.parametrize(
    ("path", "accept"),
    [
        ("/games/{game}/view", "application/json;q=0, application/msgpack;q=0"),
        ("/games/{game}/turn", "text/html"),
        ("/games/{game}/replay", "application/*;q=0"),
        ("/games/{game}/stream", "application/json"),
        ("/healthz", "application/msgpack"),
        ("/metrics", "application/json"),
    ],
)
async def test_nothing_acceptable_is_a_406_problem(api: Api, path: str, accept: str) -> None:
    game_id, _ = await api.seated_game()
    response = await api.client.get(path.format(game=game_id), headers={"accept": accept})
    problem = assert_problem(response, 406, "request.not_acceptable")
    assert problem["details"]["available"]


async def test_a_406_submit_changes_nothing(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    seat = (await turn(api, game_id))["to_act"][0]
    before = await stream_version(api, game_id)
    response = await api.client.post(
        f"/games/{game_id}/commands",
        json={"command_id": "c", "command": MOVE},
        headers={**bearer(tokens[seat]), "accept": "text/html"},
    )
    assert_problem(response, 406, "request.not_acceptable")
    await api.drain()
    assert await stream_version(api, game_id) == before


@pytest.mark.parametrize("command_id", ["a/b", "a b", "ünï", "a?b", "a#b", "x" * 129, "", "..%2F"])
async def test_command_ids_outside_the_safe_set_are_422(api: Api, command_id: str) -> None:
    game_id, tokens = await api.seated_game()
    seat = (await turn(api, game_id))["to_act"][0]
    response = await api.client.post(
        f"/games/{game_id}/commands",
        json={"command_id": command_id, "command": MOVE},
        headers=bearer(tokens[seat]),
    )
    problem = assert_problem(response, 422, "command.bad_id")
    assert "A-Z a-z 0-9 . _ ~ -" in problem["detail"]


@pytest.mark.parametrize("command_id", [".", ".."])
async def test_the_dot_segments_are_refused_as_command_ids(api: Api, command_id: str) -> None:
    # A URL path resolves them away: /commands/.. is not the command's URL
    game_id, tokens = await api.seated_game()
    seat = (await turn(api, game_id))["to_act"][0]
    response = await api.client.post(
        f"/games/{game_id}/commands",
        json={"command_id": command_id, "command": MOVE},
        headers=bearer(tokens[seat]),
    )
    problem = assert_problem(response, 422, "command.bad_id")
    assert f"may not be {command_id!r}" in problem["detail"]
    assert await api.drain() == 0


async def test_a_safe_command_id_reads_back_under_its_location(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    seat = (await turn(api, game_id))["to_act"][0]
    command_id = "Az09._~-" * 16  # every safe character, 128 of them
    queued = await api.client.post(
        f"/games/{game_id}/commands",
        json={"command_id": command_id, "command": MOVE},
        headers=bearer(tokens[seat]),
    )
    assert queued.status_code == 202, queued.text
    read = await api.client.get(queued.headers["location"], headers=bearer(tokens[seat]))
    assert (read.status_code, read.json()["command_id"]) == (200, command_id)


def test_location_escapes_each_id_as_one_path_segment() -> None:
    assert command_path("g-1", "a/b c?d") == "/games/g-1/commands/a%2Fb%20c%3Fd"


async def test_a_client_hanging_up_mid_body_is_a_499_in_logs_and_metrics(
    log_output: io.StringIO, api: Api
) -> None:
    # The whole ASGI app, called as uvicorn does for a client that sends half a body and leaves
    app: Any = api.client.app
    messages = iter(
        [
            {"type": "http.request", "body": b'{"game": "race", "con', "more_body": True},
            {"type": "http.disconnect"},
        ]
    )
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return next(messages)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": "/games", "raw_path": b"/games", "root_path": "",
        "query_string": b"", "headers": [(b"content-type", b"application/json")],
        "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80), "state": {},
    }  # fmt: skip
    await app(scope, receive, send)

    logs = [json.loads(line) for line in log_output.getvalue().splitlines()]
    assert sent[0]["status"] == 499
    assert [line["status"] for line in logs if line["event"] == "request"] == [499]
    assert not [line for line in logs if line["level"] in ("warning", "error", "critical")]
    exposition = (await api.client.get("/metrics")).text
    assert 'route="/games",status="499"' in exposition
    assert 'route="/games",status="500"' not in exposition


@pytest.mark.parametrize(
    ("path", "query"),
    [
        ("/games/{game}/events", "after=0&after=1"),
        ("/games/{game}/events", "after=0.0&limit=5&after=0.0"),
        ("/games/{game}/replay", "at=1&at=2"),
    ],
)
async def test_a_query_parameter_given_twice_is_a_400_problem(
    api: Api, path: str, query: str
) -> None:
    game_id, _ = await api.seated_game()
    response = await api.client.get(f"{path.format(game=game_id)}?{query}")
    problem = assert_problem(response, 400, "request.query_repeated")
    assert problem["details"]["parameter"] == query.split("=")[0]


async def test_a_submit_with_a_repeated_query_parameter_changes_nothing(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    seat = (await turn(api, game_id))["to_act"][0]
    before = await stream_version(api, game_id)
    response = await api.client.post(
        f"/games/{game_id}/commands?wait=0&wait=1",
        json={"command_id": "c", "command": MOVE},
        headers=bearer(tokens[seat]),
    )
    assert_problem(response, 400, "request.query_repeated")
    assert await stream_version(api, game_id) == before


# (resign takes an optional body naming the caller's seat: tests/unit/api/test_player_exits.py)
@pytest.mark.parametrize("route", ["stream-tickets", "start", "cancel", "rematch"])
async def test_a_body_to_a_route_that_takes_none_is_a_415_problem(api: Api, route: str) -> None:
    game_id, tokens = await api.seated_game()
    response = await api.client.post(
        f"/v1/games/{game_id}/{route}",
        content=b'{"reason": "ignored"}',
        headers={**bearer(tokens[0]), "content-type": "application/json"},
    )
    problem = assert_problem(response, 415, "request.body_not_accepted")
    assert f"POST /v1/games/{game_id}/{route} takes no body" in problem["detail"]


async def test_an_empty_body_to_a_route_that_takes_none_is_no_body(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    for headers in ({}, {"content-type": "application/json"}):
        response = await api.client.post(
            f"/v1/games/{game_id}/stream-tickets",
            content=b"",
            headers={**bearer(tokens[0]), **headers},
        )
        assert response.status_code == 201, response.text


async def test_a_json_body_naming_a_key_twice_is_a_400_problem_that_changes_nothing(
    api: Api,
) -> None:
    game_id, tokens = await api.seated_game()
    seat = (await turn(api, game_id))["to_act"][0]
    before = await stream_version(api, game_id)
    twice = b'{"command_id": "c", "command": {"type": "Move", "steps": 1, "steps": 2}}'
    response = await api.client.post(
        f"/games/{game_id}/commands",
        content=twice,
        headers={**bearer(tokens[seat]), "content-type": "application/json"},
    )
    problem = assert_problem(response, 400, "request.duplicate_key")
    assert problem["details"] == {"key": "steps"}
    assert await api.drain() == 0
    assert await stream_version(api, game_id) == before


async def test_colons_inside_strings_are_not_taken_for_repeated_keys(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    seat = (await turn(api, game_id))["to_act"][0]
    body = b'{"command_id": "c", "command": {"type": "Move", "steps": 1}, "x:": 1}'
    response = await api.client.post(
        f"/games/{game_id}/commands",
        content=body,
        headers={**bearer(tokens[seat]), "content-type": "application/json"},
    )
    # Decoded whole: the unknown field is what is refused, not a repeated key
    assert response.status_code == 400
    assert response.json()["code"] != "request.duplicate_key"
    assert "x:" in response.json()["detail"]
