"""`skald notifications rebuild` on the real Redis, with workers projecting a played game
and a webhook endpoint receiving its notifications: the rebuilt feeds hold the same
notifications (ids, kinds, versions), and nothing is delivered a second time."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import AsyncIterator

import httpx
import msgspec
import pytest
from redis.asyncio import Redis

from service import bootstrap
from service.core.notifying.signing import new_secret
from service.facade.skald import Skald
from service.shared.settings import Settings
from tests.fakes.webhook_receiver import serve_receiver

from .conftest import Workers, worker_env
from .test_webhooks import dispatch_until, endpoint_for

pytestmark = [pytest.mark.anyio, pytest.mark.redis]


@pytest.fixture
def settings(core_settings: Settings) -> Settings:
    # The receiver listens on the loopback: private addresses allowed for this test.
    return msgspec.structs.replace(
        core_settings, webhook_linger_ms=0, webhook_timeout_s=2.0, webhook_allow_private=True
    )


@pytest.fixture
async def redis(settings: Settings) -> AsyncIterator[Redis]:
    client = Redis.from_url(settings.redis_url)
    yield client
    await client.aclose()


async def play_out(facade: Skald, game_id: str) -> None:
    for step in range(100):
        turn = await facade.reads.turn(game_id, None)
        if turn.finished:
            return
        if not turn.to_act:
            await asyncio.sleep(0.05)
            continue
        seat = turn.to_act[0]
        legal = (await facade.reads.turn(game_id, seat)).legal_commands
        await facade.commands.submit(game_id, seat, f"m{step}", legal[0], "r")
        await facade.commands.wait_outcome(game_id, f"m{step}", 5)
    raise AssertionError("the game did not finish")


async def test_a_rebuild_gives_the_same_feeds_and_delivers_nothing_again(
    settings: Settings, redis: Redis, workers: Workers
) -> None:
    with serve_receiver(new_secret()) as receiver:
        await endpoint_for(settings, redis, receiver)
        facade = await bootstrap.connect(settings)
        try:
            workers.start(1)
            players = facade.players
            ada, bo = await players.register("Ada"), await players.register("Bo")
            config = {"players": 2, "target": 6}
            game_id = (await players.create_game(ada.player_id, "race", config, None)).game_id
            await players.join(ada.player_id, game_id, 0)
            await players.join(bo.player_id, game_id, 1)
            await play_out(facade, game_id)
            side = facade.notifications
            assert side is not None
            events = bootstrap.store(redis, settings)
            cursors = bootstrap.notification_projector(settings, redis, events).cursors
            head = await events.head(game_id)
            assert head is not None
            deadline = time.monotonic() + 30
            while await cursors.get(game_id) < head.version:  # the workers project it
                assert time.monotonic() < deadline
                await asyncio.sleep(0.05)

            async def feeds() -> dict[str, list[tuple[str, str, int]]]:
                found = {}
                for player in (ada.player_id, bo.player_id):
                    page = await side.page(player, "0", 200)
                    found[player] = sorted(
                        (e.notification.id, e.notification.kind, e.notification.version)
                        for e in page.notifications
                    )
                return found

            before = await feeds()
            kinds = {kind for made in before.values() for _, kind, _ in made}
            assert {"game_started", "your_turn", "game_finished"} <= kinds
            wanted = {i for made in before.values() for i, _, _ in made}
            async with httpx.AsyncClient() as client:
                dispatcher = bootstrap.dispatcher(settings, redis, client, "rebuild-test")
                await dispatch_until(
                    dispatcher, lambda: wanted <= receiver.accepted_notification_ids()
                )
                attempts = len(receiver.attempts)
                for player in (ada.player_id, bo.player_id):  # as if the feeds were lost
                    await side.feed.clear(player)
                assert (await feeds()) == {ada.player_id: [], bo.player_id: []}
                rebuilt = subprocess.run(
                    [sys.executable, "-m", "service.cli", "notifications", "rebuild", game_id],
                    env=worker_env(settings),
                    capture_output=True,
                    text=True,
                    timeout=60,
                )
                assert rebuilt.returncode == 0, rebuilt.stderr
                assert "2 player feed(s) rebuilt from 1 game(s)" in rebuilt.stdout
                assert await feeds() == before
                store = bootstrap.webhook_store(redis, settings)
                assert (await store.backlog())["inbox"] == 0  # nothing queued again
                for _ in range(5):
                    await dispatcher.step(block_ms=50)
                assert len(receiver.attempts) == attempts
        finally:
            await facade.close()
