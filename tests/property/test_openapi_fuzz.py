"""Schemathesis fuzzes the OpenAPI document (`skald openapi`) against a real server.

Every operation gets requests generated from its schema, valid and not, sent to uvicorn over
the real Redis, aimed at a real game with a real seat token. No reply is a 5xx, every error is
application/problem+json, and a refused request (4xx) changes no stream: neither the game's
events nor its inbox grow. The run is bounded (EXAMPLES per operation) to fit in CI.
"""

from __future__ import annotations

import os
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import msgspec
import pytest
import redis
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.core.parameters import ParameterLocation

from domain.games import game_names
from service.adapters.embedded_redis import free_port
from service.adapters.store.keys import GameKeys
from service.api import create_litestar
from service.api.openapi import openapi_json
from service.cli.processes import ApiServer
from service.shared.settings import Settings
from tests.fakes.race import race_config, register_race
from tests.integration.reliability.figures import record_figures

pytestmark = pytest.mark.redis

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
EXAMPLES = 40
RUN = uuid.uuid4().hex[:10]
SETTINGS = Settings(
    redis_url=REDIS_URL,
    key_prefix=f"fuzz-{RUN}:",
    queue_name=f"fuzz-{RUN}",
    plugins="tests.fakes.race",
    max_wait_s=0.5,  # no worker runs: a generated `wait` must not hold the run up
)

load_all_checks()
ALL_CHECKS = CHECKS.get_all()
register_race()
# A schema-valid request may still be refused by the rules or the game's own checks (a move out
# of turn, a config the game rejects): that is a 422 problem, so it is an accepted answer too.
# Unknown query parameters are ignored, as HTTP APIs commonly do (OpenAPI cannot declare "any
# other parameter"), so requests carrying some are not generated as invalid ones.
CONFIG = schemathesis.config.SchemathesisConfig.from_str(
    """
[generation]
allow-extra-parameters = false

[checks.positive_data_acceptance]
expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]
"""
)
SCHEMA = schemathesis.openapi.from_dict(
    msgspec.json.decode(openapi_json(create_litestar(SETTINGS))), config=CONFIG
).exclude(
    operation_id_regex="^streamViews$|StreamViews$|^streamNotifications$"  # endless streams;
    # their refusals are tested apart
)


@dataclass
class Target:
    """The running server and the games requests are aimed at: one of each registered game."""

    url: str
    games: dict[str, tuple[str, str]]  # game name -> (game id, a seat's token)
    redis: redis.Redis
    statuses: Counter[int]

    def aimed_at(self, path: str) -> tuple[str, str]:
        """The game (id, token) for an operation: its game's on a game's own path, else race."""
        segments = path.split("/")[1:]
        if segments and segments[0] == "v1":
            segments = segments[1:]
        return self.games.get(segments[0] if segments else "", self.games["race"])

    def lengths(self, game_id: str) -> tuple[int, int]:
        """(events, inbox) entries of the game's streams."""
        keys = GameKeys(SETTINGS.key_prefix, game_id)
        return self.redis.xlen(keys.events), self.redis.xlen(keys.inbox)


@pytest.fixture(scope="module")
def target() -> Iterator[Target]:
    register_race()  # again: another module's teardown may have unregistered it
    direct = redis.Redis.from_url(REDIS_URL)
    server = ApiServer(SETTINGS, "127.0.0.1", free_port())
    server.start_in_thread()
    try:
        games = {}
        with httpx.Client(base_url=server.url) as http:
            for name in game_names():
                # Three seats: every game takes three players (some take no fewer).
                config = race_config(2, 30) if name == "race" else {"players": 3}
                game_id = http.post("/games", json={"game": name, "config": config}).json()[
                    "game_id"
                ]
                token = http.post(f"/games/{game_id}/seats", json={}).json()["token"]
                games[name] = (game_id, token)
        aimed = Target(server.url, games, direct, Counter())
        yield aimed
        record_figures(
            "openapi_fuzz",
            operations=len(list(SCHEMA.get_all_operations())),
            requests=aimed.statuses.total(),
            server_errors=0,
            by_status=dict(sorted(aimed.statuses.items())),
        )
    finally:
        server.stop()
        for pattern in (f"{SETTINGS.key_prefix}*", f"rq:*{SETTINGS.queue_name}*"):
            keys = list(direct.scan_iter(match=pattern, count=1000))
            if keys:
                direct.delete(*keys)
        direct.close()


@SCHEMA.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_request_breaks_the_server_or_a_stream(case: Any, target: Target) -> None:
    # Given a real game of the operation's game (its id in the path) and its seat's token
    game_id, token = target.aimed_at(case.operation.path)
    if "game_id" in (case.path_parameters or {}):
        case.path_parameters["game_id"] = game_id
    before = target.lengths(game_id)
    # When the generated request is sent
    # (with the seat's token, unless the case is about a wrong or missing header)
    negative_headers = case.meta is not None and case.meta.is_negative_at(ParameterLocation.HEADER)
    headers = {} if negative_headers else {"authorization": f"Bearer {token}"}
    response = case.call(base_url=target.url, headers=headers, timeout=10)
    target.statuses[response.status_code] += 1
    # Then every Schemathesis check passes: the reply is what the document declares for it
    case.validate_response(response, checks=ALL_CHECKS, headers=headers)
    # Then it is not a server error, an error is a problem, and a refusal changed nothing
    assert response.status_code < 500, (case.method, case.formatted_path, response.text)
    if response.status_code >= 400:
        content_type = response.headers["content-type"][0]  # schemathesis keeps header lists
        assert content_type.startswith("application/problem+json"), (
            case.method,
            case.formatted_path,
            response.status_code,
        )
        assert target.lengths(game_id) == before
