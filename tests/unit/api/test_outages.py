"""The notifier during a Redis outage: leaving a subscription never fails a request, and a
subscription that cannot be made is a 503 with Retry-After, never a 500."""

from __future__ import annotations

from typing import Any

import fakeredis
import pytest
from litestar.testing import AsyncTestClient
from redis.asyncio.client import PubSub

from domain.games import unregister
from service import bootstrap
from service.api import create_app
from service.facade.skald import Skald
from service.shared.settings import Settings
from tests.fakes.race import race_config, register_race
from tests.fakes.scheduler import RecordingScheduler

from .conftest import bearer
from .test_problems import assert_problem

pytestmark = pytest.mark.anyio
# What redis-py's pub/sub raised on a connection torn down by an outage (a probe saw a 500).
TORN_DOWN = AttributeError("'NoneType' object has no attribute 'send_command'")


class LeavingFails(PubSub):
    """Subscribes; unsubscribing raises as it did during an outage."""

    async def unsubscribe(self, *args: Any) -> None:
        raise TORN_DOWN


class SubscribingFails(PubSub):
    """Subscribing raises as it did during an outage."""

    async def subscribe(self, *args: Any, **kwargs: Any) -> None:
        raise TORN_DOWN


class OutageRedis(fakeredis.aioredis.FakeRedis):
    """A fake Redis whose pub/sub fails in one of the ways above."""

    pubsub_class: type[PubSub] = PubSub

    def pubsub(self, **kwargs: Any) -> PubSub:
        return self.pubsub_class(self.connection_pool, **kwargs)


@pytest.mark.parametrize(
    ("pubsub", "submit_status", "read_status"),
    [(LeavingFails, 202, 200), (SubscribingFails, 503, 503)],
    ids=["leaving fails", "subscribing fails"],
)
async def test_waits_survive_a_broken_pubsub(
    pubsub: type[PubSub], submit_status: int, read_status: int
) -> None:
    # Given an API whose pub/sub connection is broken (no worker runs: commands stay queued)
    register_race()
    settings = Settings(redis_url="redis://fake/0", key_prefix="outage:", max_wait_s=1.0)
    redis = OutageRedis(server=fakeredis.FakeServer())
    redis.pubsub_class = pubsub
    skald = bootstrap.skald(settings, redis, RecordingScheduler())

    async def connect(_: Settings) -> Skald:
        return skald

    try:
        async with AsyncTestClient(create_app(settings, connect)) as client:
            created = await client.post("/games", json={"game": "race", "config": race_config()})
            game_id = created.json()["game_id"]
            tokens = [(await client.post(f"/games/{game_id}/seats", json={})).json()["token"]]
            tokens.append((await client.post(f"/games/{game_id}/seats", json={})).json()["token"])
            to_act = (await client.get(f"/games/{game_id}/turn")).json()["to_act"][0]
            # When a seat submits and waits, then reads its command with a wait
            submitted = await client.post(
                f"/games/{game_id}/commands",
                params={"wait": "0.05"},
                json={"command_id": "c1", "command": {"type": "Move", "steps": 1}},
                headers=bearer(tokens[to_act]),
            )
            read = await client.get(
                f"/games/{game_id}/commands/c1",
                params={"wait": "0.05"},
                headers=bearer(tokens[to_act]),
            )
    finally:
        unregister("race")
    # Then leaving is harmless (the answers say "queued"), and a failed subscription is a 503
    assert submitted.status_code == submit_status, submitted.text
    assert read.status_code == read_status, read.text
    for response in (submitted, read):
        if response.status_code == 503:
            assert_problem(response, 503, "redis.unavailable")
            assert int(response.headers["retry-after"]) >= 1
        else:
            assert response.json()["status"] == "queued"
