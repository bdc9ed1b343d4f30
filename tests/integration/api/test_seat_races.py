"""Racing requests against a real server on the real Redis: one player's simultaneous joins of
one game hold one seat; the limits of games not over and of games created per hour hold
exactly under simultaneous requests; and verify passes every game the races left."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import redis

from service.adapters.embedded_redis import free_port
from service.cli.processes import ApiServer
from service.shared.settings import Settings
from tests.fakes.race import race_config
from tests.integration.api.conftest import PLUGINS, REDIS_URL, _delete_keys

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

ACTIVE_LIMIT = 5
CREATE_LIMIT = 5
TRIALS = 20


@pytest.fixture(scope="module")
def racing_server() -> Iterator[str]:
    """A server with small per-player limits, on its own key prefix (no worker: nothing here
    needs a command decided)."""
    run = uuid.uuid4().hex[:10]
    settings = Settings(
        redis_url=REDIS_URL,
        key_prefix=f"it-races-{run}:",
        queue_name=f"it-races-{run}",
        plugins=PLUGINS,
        max_active_games_per_player=ACTIVE_LIMIT,
        max_games_created_per_hour=CREATE_LIMIT,
    )
    direct = redis.Redis.from_url(REDIS_URL)
    api = ApiServer(settings, "127.0.0.1", free_port())
    api.start_in_thread()
    try:
        yield api.url
    finally:
        api.stop()
        _delete_keys(direct, f"{settings.key_prefix}*")
        _delete_keys(direct, f"rq:*{settings.queue_name}*")
        direct.close()


@pytest.fixture
async def http(racing_server: str) -> AsyncIterator[httpx.AsyncClient]:
    limits = httpx.Limits(max_connections=32)
    async with httpx.AsyncClient(base_url=racing_server, timeout=30, limits=limits) as client:
        yield client


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


async def new_player(http: httpx.AsyncClient, name: str) -> dict[str, Any]:
    made = await http.post("/v1/players", json={"name": name})
    assert made.status_code == 201, made.text
    player: dict[str, Any] = made.json()
    return player


async def guest_game(http: httpx.AsyncClient, players: int = 2) -> str:
    made = await http.post("/v1/games", json={"game": "race", "config": race_config(players)})
    assert made.status_code == 201, made.text
    game_id: str = made.json()["game_id"]
    return game_id


async def test_simultaneous_joins_by_one_player_hold_one_seat(http: httpx.AsyncClient) -> None:
    one_seat = 0
    for trial in range(TRIALS):
        creator = await new_player(http, f"Host{trial}")
        made = await http.post(
            "/v1/games",
            json={"game": "race", "config": race_config(4)},
            headers=bearer(creator["token"]),
        )
        assert made.status_code == 201, made.text
        game_id = made.json()["game_id"]
        ada = await new_player(http, f"Ada{trial}")
        replies = await asyncio.gather(
            *(
                http.post(f"/v1/games/{game_id}/seats", json={}, headers=bearer(ada["token"]))
                for _ in range(4)
            )
        )
        answered = {(reply.status_code, reply.json().get("seat")) for reply in replies}
        listed = await http.get("/v1/games", params={"open": "true", "limit": 200})
        lobby = {game["game_id"]: game for game in listed.json()["games"]}
        taken = lobby[game_id]["taken"] if game_id in lobby else "all (the game left the lobby)"
        # Every reply names the one seat the player holds.
        one_seat += answered == {(201, 0)} and taken == [0]
    assert one_seat == TRIALS, f"{one_seat} of {TRIALS} trials one seat"


async def test_the_active_limit_holds_under_simultaneous_joins(http: httpx.AsyncClient) -> None:
    for trial in range(3):
        ada = await new_player(http, f"Busy{trial}")
        held = [await guest_game(http) for _ in range(ACTIVE_LIMIT - 1)]
        for game_id in held:
            joined = await http.post(
                f"/v1/games/{game_id}/seats", json={}, headers=bearer(ada["token"])
            )
            assert joined.status_code == 201, joined.text
        more = [await guest_game(http) for _ in range(10)]
        replies = await asyncio.gather(
            *(
                http.post(f"/v1/games/{game_id}/seats", json={}, headers=bearer(ada["token"]))
                for game_id in more
            )
        )
        codes = sorted(reply.status_code for reply in replies)
        assert codes == [201] + [429] * 9, (
            f"{codes.count(201)} of 10 joins taken at {ACTIVE_LIMIT - 1} held"
        )
        listed = await http.get(
            "/v1/players/me/games", params={"limit": 100}, headers=bearer(ada["token"])
        )
        assert len(listed.json()["games"]) == ACTIVE_LIMIT


async def test_the_hourly_creation_limit_holds_under_simultaneous_creations(
    http: httpx.AsyncClient,
) -> None:
    for trial in range(3):
        ada = await new_player(http, f"Maker{trial}")
        for _ in range(CREATE_LIMIT - 2):
            made = await http.post(
                "/v1/games",
                json={"game": "race", "config": race_config()},
                headers=bearer(ada["token"]),
            )
            assert made.status_code == 201, made.text
        replies = await asyncio.gather(
            *(
                http.post(
                    "/v1/games",
                    json={"game": "race", "config": race_config()},
                    headers=bearer(ada["token"]),
                )
                for _ in range(10)
            )
        )
        codes = sorted(reply.status_code for reply in replies)
        assert codes == [201] * 2 + [429] * 8, f"{codes.count(201)} of 10 created with 2 left"
        assert all("retry-after" in r.headers for r in replies if r.status_code == 429)
