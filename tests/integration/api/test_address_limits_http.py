"""The per-address limit on a real uvicorn server: a client's X-Forwarded-For does not change
the address it is counted under, unless the server was told to trust the proxy it came
through (here the test itself, on 127.0.0.1), and then each forwarded client counts apart."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest
import redis

from service.adapters.embedded_redis import free_port
from service.cli.processes import ApiServer
from service.shared.settings import Settings

from .conftest import PLUGINS, REDIS_URL, _delete_keys

pytestmark = pytest.mark.redis


def serving(trusted: str) -> Iterator[str]:
    """The API (no worker: creating players needs none) with a limit of 2 players a minute
    per address, trusting X-Forwarded-For from `trusted` proxies; its URL."""
    run = uuid.uuid4().hex[:10]
    settings = Settings(
        redis_url=REDIS_URL,
        key_prefix=f"it-address-{run}:",
        queue_name=f"it-address-{run}",
        plugins=PLUGINS,
        players_per_address=2,
        forwarded_allow_ips=trusted,
    )
    server = ApiServer(settings, "127.0.0.1", free_port())
    server.start_in_thread()
    try:
        yield server.url
    finally:
        server.stop()
        direct = redis.Redis.from_url(REDIS_URL)
        _delete_keys(direct, f"{settings.key_prefix}*")
        direct.close()


@pytest.fixture
def untrusting() -> Iterator[str]:
    yield from serving("")


@pytest.fixture
def behind_a_proxy() -> Iterator[str]:
    yield from serving("127.0.0.1")


def statuses(url: str, forwarded: list[str]) -> list[int]:
    """The status of a player created with each X-Forwarded-For value."""
    with httpx.Client(base_url=f"{url}/v1", timeout=15) as http:
        return [
            http.post("/players", json={"name": "p"}, headers={"x-forwarded-for": f}).status_code
            for f in forwarded
        ]


def test_a_forwarded_for_header_is_not_trusted_by_default(untrusting: str) -> None:
    forged = ["203.0.113.1", "203.0.113.2", "203.0.113.3", "203.0.113.4"]
    assert statuses(untrusting, forged) == [201, 201, 429, 429]


def test_behind_a_trusted_proxy_each_forwarded_client_counts_apart(behind_a_proxy: str) -> None:
    clients = ["203.0.113.1", "203.0.113.1", "203.0.113.1", "203.0.113.2"]
    assert statuses(behind_a_proxy, clients) == [201, 201, 429, 201]
