"""Per-address limits on what needs no credential: players created and games created without
a player's token. Past the limit a 429 problem with Retry-After; other addresses, and a
player's own games, are not counted; X-Forwarded-For changes nothing unless a proxy is
trusted; concurrent requests cannot slip past the limit."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from service.api.server import uvicorn_config
from service.shared.settings import Settings
from tests.fakes.race import race_config
from tests.unit.api.conftest import Api, bearer

pytestmark = pytest.mark.anyio
LIMITED = {"players_per_address": 2, "guest_games_per_address": 3, "address_window_s": 60.0}
GAME = {"game": "race", "config": race_config()}


def from_address(api: Api, host: str) -> httpx.AsyncClient:
    """A client of the same app whose connection comes from `host`."""
    transport = httpx.ASGITransport(app=api.app, client=(host, 40000))
    return httpx.AsyncClient(transport=transport, base_url=str(api.client.base_url))


def assert_limited(response: httpx.Response, code: str, limit: int) -> None:
    assert response.status_code == 429, response.text
    problem = response.json()
    assert (problem["code"], problem["details"]["limit"]) == (code, limit)
    assert 1 <= int(response.headers["retry-after"]) <= 60


@pytest.mark.parametrize("settings_overrides", [LIMITED])
async def test_players_past_the_limit_are_refused_per_address(api: Api) -> None:
    for n in range(2):
        assert (await api.client.post("/players", json={"name": f"p{n}"})).status_code == 201
    refused = await api.client.post("/players", json={"name": "one more"})
    assert_limited(refused, "address.player_limit", 2)
    async with from_address(api, "198.51.100.7") as other:
        assert (await other.post("/players", json={"name": "elsewhere"})).status_code == 201


@pytest.mark.parametrize("settings_overrides", [LIMITED])
async def test_token_less_games_past_the_limit_are_refused_a_players_are_not(api: Api) -> None:
    player = (await api.client.post("/players", json={"name": "Ada"})).json()
    for _ in range(3):
        assert (await api.client.post("/games", json=GAME)).status_code == 201
    assert_limited(await api.client.post("/games", json=GAME), "address.game_limit", 3)
    mine = await api.client.post("/games", json=GAME, headers=bearer(player["token"]))
    assert mine.status_code == 201, mine.text  # limited per player instead


@pytest.mark.parametrize("settings_overrides", [LIMITED])
async def test_a_forwarded_for_header_does_not_change_the_address_counted(api: Api) -> None:
    for n in range(3):
        forged = {"x-forwarded-for": f"203.0.113.{n}"}
        response = await api.client.post("/players", json={"name": f"p{n}"}, headers=forged)
        assert response.status_code == (201 if n < 2 else 429)


@pytest.mark.parametrize("settings_overrides", [{**LIMITED, "players_per_address": 5}])
async def test_concurrent_requests_do_not_slip_past_the_limit(api: Api) -> None:
    replies = await asyncio.gather(
        *(api.client.post("/players", json={"name": f"p{n}"}) for n in range(12))
    )
    assert sorted(r.status_code for r in replies) == [201] * 5 + [429] * 7


@pytest.mark.parametrize(
    "settings_overrides", [{"players_per_address": 0, "guest_games_per_address": 0}]
)
async def test_a_limit_of_zero_is_no_limit(api: Api) -> None:
    for n in range(70):
        assert (await api.client.post("/players", json={"name": f"p{n}"})).status_code == 201
    for _ in range(130):
        assert (await api.client.post("/games", json=GAME)).status_code == 201


async def test_the_limited_routes_declare_their_429(api: Api) -> None:
    paths: dict[str, Any] = (await api.client.get("/openapi.json")).json()["paths"]
    for path in ("/v1/players", "/v1/games"):
        assert "429" in paths[path]["post"]["responses"], path


def test_the_server_trusts_forwarded_for_only_from_the_proxies_named() -> None:
    default = uvicorn_config(object(), Settings(), "127.0.0.1", 0)
    assert default.proxy_headers is False
    behind = Settings(forwarded_allow_ips="10.0.0.1")
    trusting = uvicorn_config(object(), behind, "127.0.0.1", 0)
    assert (trusting.proxy_headers, trusting.forwarded_allow_ips) == (True, "10.0.0.1")
