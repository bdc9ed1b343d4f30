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

register_race()
SCHEMA = schemathesis.openapi.from_dict(
    msgspec.json.decode(openapi_json(create_litestar(SETTINGS)))
).exclude(operation_id="streamViews")  # an endless event stream; its refusals are tested apart


@dataclass
class Target:
    """The running server and the game every request is aimed at."""

    url: str
    game_id: str
    token: str
    redis: redis.Redis
    statuses: Counter[int]

    def lengths(self) -> tuple[int, int]:
        """(events, inbox) entries of the game's streams."""
        keys = GameKeys(SETTINGS.key_prefix, self.game_id)
        return self.redis.xlen(keys.events), self.redis.xlen(keys.inbox)


@pytest.fixture(scope="module")
def target() -> Iterator[Target]:
    direct = redis.Redis.from_url(REDIS_URL)
    server = ApiServer(SETTINGS, "127.0.0.1", free_port())
    server.start_in_thread()
    try:
        with httpx.Client(base_url=server.url) as http:
            game = http.post("/games", json={"game": "race", "config": race_config(2, 30)})
            game_id = game.json()["game_id"]
            token = http.post(f"/games/{game_id}/seats", json={}).json()["token"]
        aimed = Target(server.url, game_id, token, direct, Counter())
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
    # Given the real game (its id in the path) and its seat's token
    if "game_id" in (case.path_parameters or {}):
        case.path_parameters["game_id"] = target.game_id
    before = target.lengths()
    # When the generated request is sent
    response = case.call(
        base_url=target.url, headers={"authorization": f"Bearer {target.token}"}, timeout=10
    )
    target.statuses[response.status_code] += 1
    # Then it is not a server error, an error is a problem, and a refusal changed nothing
    assert response.status_code < 500, (case.method, case.formatted_path, response.text)
    if response.status_code >= 400:
        content_type = response.headers["content-type"][0]  # schemathesis keeps header lists
        assert content_type.startswith("application/problem+json"), (
            case.method,
            case.formatted_path,
            response.status_code,
        )
        assert target.lengths() == before
