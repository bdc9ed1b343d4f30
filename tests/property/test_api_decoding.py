"""The API's decoders answer random bodies and parameters with a 4xx problem, never a 5xx.

Random bytes, random JSON and random MessagePack go to every route that takes a body, and
random strings to the path and query parameters of the reads; each reply is below 500, every
error is application/problem+json, and no refused request changes the game's stream.
The app is the real ASGI application over the real facade on fakeredis (no worker runs, so a
command accepted with 202 stays queued: the stream version is what must not move).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import fakeredis
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from domain.games import unregister
from service import bootstrap
from service.api import create_app
from service.facade.skald import Skald
from service.shared.settings import Settings
from tests.fakes.race import race_config, register_race
from tests.fakes.scheduler import RecordingScheduler

EXAMPLES = 300
API_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
BODY_MEDIA_TYPES = ["application/json", "application/msgpack", "text/plain", ""]
WORDS = ["type", "Move", "Boost", "steps", "command_id", "command", "game", "race", "config",
         "players", "target", "seat", "name", "fjords", "looot", "PlaceTile", "q", "r"]  # fmt: skip


class Table:
    """A client of the app with one seated race game in it."""

    def __init__(self, client: TestClient[Any]) -> None:
        self.client = client
        created = client.post("/games", json={"game": "race", "config": race_config(2, 30)})
        assert created.status_code == 201, created.text
        self.game_id: str = created.json()["game_id"]
        seat = client.post(f"/games/{self.game_id}/seats", json={})
        assert seat.status_code == 201, seat.text
        self.token: str = seat.json()["token"]

    def version(self) -> int:
        """The stream's version, as the events endpoint reports it."""
        response = self.client.get(f"/games/{self.game_id}/events")
        assert response.status_code == 200, response.text
        version: int = response.json()["last_version"]
        return version


@pytest.fixture(scope="module")
def table() -> Iterator[Table]:
    register_race()
    settings_ = Settings(redis_url="redis://fake/0", key_prefix="prop-api:", max_body_bytes=4096)
    redis = fakeredis.aioredis.FakeRedis(server=fakeredis.FakeServer())
    skald = bootstrap.skald(settings_, redis, RecordingScheduler())

    async def connect(_: Settings) -> Skald:
        return skald

    with TestClient(create_app(settings_, connect)) as client:
        yield Table(client)
    unregister("race")


def json_values() -> st.SearchStrategy[Any]:
    text = st.one_of(st.sampled_from(WORDS), st.text(max_size=10))
    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1), st.floats(), text
    )
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(text, inner, max_size=5)
        ),
        max_leaves=12,
    )


def encoded(value: Any, media_type: str) -> bytes:
    if media_type == "application/msgpack":
        return msgspec.msgpack.encode(value)
    return msgspec.json.encode(value)  # NaN and infinities come out as null: still random


bodies = st.one_of(
    st.binary(max_size=300),
    st.tuples(json_values(), st.sampled_from(BODY_MEDIA_TYPES)).map(lambda v: encoded(*v)),
    json_values().map(lambda v: encoded({"command_id": "c", "command": v}, "application/json")),
)


def assert_clean_refusal_or_success(response: Any) -> None:
    """Below 500, and a problem+json when it is an error."""
    assert response.status_code < 500, (response.status_code, response.text)
    if response.status_code >= 400:
        assert response.headers["content-type"].startswith("application/problem+json")
        assert msgspec.json.decode(response.content)["status"] == response.status_code


@API_SETTINGS
@given(
    route=st.sampled_from(["/games", "/games/{game}/seats", "/games/{game}/commands"]),
    body=bodies,
    media_type=st.sampled_from(BODY_MEDIA_TYPES),
)
def test_random_bodies_are_refused_with_a_4xx_problem_and_change_no_stream(
    table: Table, route: str, body: bytes, media_type: str
) -> None:
    # Given a game at some version
    before = table.version()
    # When a random body is posted, as the seated player
    headers = {"authorization": f"Bearer {table.token}"}
    if media_type:
        headers["content-type"] = media_type
    response = table.client.post(route.format(game=table.game_id), content=body, headers=headers)
    # Then it is a clean answer, and the stream did not move
    assert_clean_refusal_or_success(response)
    assert table.version() == before


@API_SETTINGS
@given(
    route=st.sampled_from(
        [
            "/games/{game}/view",
            "/games/{game}/events",
            "/games/{game}/turn",
            "/games/{game}/replay",
            "/games/{game}/audit/{value}",
            "/games/{game}/commands/{value}",
            "/games/{game}/fairness",
            "/games",
            "/games/{value}/view",
        ]
    ),
    value=st.text(max_size=20),
    params=st.dictionaries(
        st.sampled_from(["seat", "after", "limit", "wait", "version", "at", "open", "game"]),
        st.one_of(st.text(max_size=12), st.integers(-(2**70), 2**70).map(str)),
        max_size=3,
    ),
    with_token=st.booleans(),
)
def test_random_parameters_of_the_reads_give_a_4xx_problem_at_worst(
    table: Table, route: str, value: str, params: dict[str, str], with_token: bool
) -> None:
    headers = {"authorization": f"Bearer {table.token}"} if with_token else {}
    path = route.format(game=table.game_id, value=quote(value, safe=""))
    response = table.client.get(path, params=params, headers=headers)
    assert_clean_refusal_or_success(response)


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"\x81\xa3\xb6\x04\xa5\x01", id="key-not-utf8"),
        pytest.param(b"\x82\xaacommand_id\xa1c\xa7command\x81\xa4type\xa3\xb6\x04\xa5", id="value"),
    ],
)
def test_a_messagepack_body_with_a_string_that_is_not_utf8_is_a_400(
    table: Table, body: bytes
) -> None:
    # Given a MessagePack body whose string is not UTF-8 (msgspec raises UnicodeDecodeError)
    headers = {"authorization": f"Bearer {table.token}", "content-type": "application/msgpack"}
    # When it is posted as a command
    response = table.client.post(f"/games/{table.game_id}/commands", content=body, headers=headers)
    # Then it is refused like any malformed body
    assert response.status_code == 400, response.text
    assert_clean_refusal_or_success(response)
