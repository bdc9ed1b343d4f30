"""Webhooks end to end on the real Redis and a real HTTP receiver on loopback: signatures
verified by the `standardwebhooks` library; retries (500, then a timeout, then 200) with one
stable id; dead-lettering after the last attempt and replay; the quiet rule; a dispatcher
SIGKILLed mid-delivery; and many notifications through repeated kills with none lost."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import msgspec
import pytest
from redis.asyncio import Redis

from contracts.notifications import Notification
from service import bootstrap
from service.adapters.notification_feed import Presence
from service.adapters.webhook_http import AiohttpPoster, new_session
from service.core.notifying.dispatch import MAX_PER_DELIVERY, Dispatcher
from service.core.notifying.signing import new_secret
from service.core.ports.notifications import encode_notification
from service.core.ports.webhooks import Poster
from service.shared.settings import Settings
from tests.fakes.webhook_receiver import Receiver, serve_receiver
from tests.integration.api.test_notifications_http import ALLOWED_FIELDS  # a body is one

from .conftest import Workers, worker_env
from .test_redis_restart import OwnRedis

pytestmark = [pytest.mark.anyio, pytest.mark.redis]


@pytest.fixture
def settings(core_settings: Settings) -> Settings:
    return msgspec.structs.replace(
        core_settings,
        webhook_retry_s="0.2,0.2",
        webhook_timeout_s=0.5,
        admin_token="adm",
        webhook_linger_ms=0,
        webhook_allow_private=True,  # the receivers listen on the loopback
    )


@pytest.fixture
async def redis(settings: Settings) -> AsyncIterator[Redis]:
    client = Redis.from_url(settings.redis_url)
    yield client
    await client.aclose()


def made(game: str, version: int, kind: str = "your_turn", seat: int = 0) -> Notification:
    return Notification(
        id=f"{game}:{version}:{kind}:{seat}",
        game_id=game,
        kind=kind,  # type: ignore[arg-type]
        version=version,
        seat=seat,
    )


async def dispatch_until(dispatcher: Dispatcher, done: object, limit_s: float = 20) -> None:
    """Step the dispatcher until `done()` holds (bounded, so a bug fails rather than hangs)."""
    deadline = time.monotonic() + limit_s
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, "the dispatcher did not get there"
        await dispatcher.step(block_ms=50)
        await asyncio.sleep(0.02)


async def endpoint_for(settings: Settings, redis: Redis, receiver: Receiver) -> str:
    admin = bootstrap.webhook_admin(settings, redis)
    endpoint = await admin.add(receiver.url, [], receiver.secret)
    await admin.store.ensure_group()
    return endpoint.id


@contextlib.asynccontextmanager
async def delivery_client(kind: str) -> AsyncIterator[httpx.AsyncClient | Poster]:
    """What the dispatcher POSTs with: an httpx client, or the dispatcher process's aiohttp
    poster."""
    if kind == "httpx":
        async with httpx.AsyncClient() as client:
            yield client
    else:
        async with new_session() as session:
            yield AiohttpPoster(session)


@pytest.mark.parametrize("client_kind", ["aiohttp", "httpx"])
async def test_a_delivery_is_retried_after_a_500_and_a_timeout_with_one_id(
    settings: Settings, redis: Redis, client_kind: str
) -> None:
    with serve_receiver(new_secret(), [500, "stall"]) as receiver:
        await endpoint_for(settings, redis, receiver)
        async with delivery_client(client_kind) as client:
            dispatcher = bootstrap.dispatcher(settings, redis, client, "c1")
            store = dispatcher.store
            notes = [made("g1", v) for v in (3, 5, 7)]
            await store.enqueue("ada", [(n.kind, encode_notification(n)) for n in notes])
            await dispatch_until(dispatcher, receiver.accepted)
        answers = [a.answered for a in receiver.attempts]
        assert answers[:3] == [500, "stall", 200]
        assert len({a.id for a in receiver.attempts}) == 1  # one stable id throughout
        [accepted] = receiver.accepted()
        assert [n["id"] for n in accepted.body["notifications"]] == [n.id for n in notes]
        assert accepted.body["player_id"] == "ada"


async def test_after_the_last_attempt_a_delivery_is_dead_lettered_and_replays(
    settings: Settings, redis: Redis
) -> None:
    with serve_receiver(new_secret(), [500, 503, 500]) as receiver:
        endpoint_id = await endpoint_for(settings, redis, receiver)
        admin = bootstrap.webhook_admin(settings, redis)
        async with httpx.AsyncClient() as client:
            dispatcher = bootstrap.dispatcher(settings, redis, client, "c1")
            note = made("g2", 4, "game_started")
            await dispatcher.store.enqueue("bo", [(note.kind, encode_notification(note))])

            async def dead() -> bool:
                return bool(await admin.dead_letters())

            deadline = time.monotonic() + 20
            while not await dead():
                assert time.monotonic() < deadline
                await dispatcher.step(block_ms=50)
                await asyncio.sleep(0.05)
            [letter] = await admin.dead_letters()
            assert (letter.endpoint_id, letter.player_id, letter.attempts) == (endpoint_id, "bo", 3)
            assert letter.last_error == "HTTP 500"
            assert receiver.accepted() == []
            assert await admin.replay() == 1
            await dispatch_until(dispatcher, receiver.accepted)
        assert receiver.accepted()[0].id == letter.id  # replayed as it was
        assert await admin.dead_letters() == []


@pytest.mark.parametrize("client_kind", ["aiohttp", "httpx"])
async def test_a_dispatcher_never_calls_an_endpoint_on_a_private_address(
    settings: Settings, redis: Redis, client_kind: str
) -> None:
    # Registered while private addresses were allowed (or since resolving elsewhere), the
    # endpoint is checked again at delivery: a dispatcher refusing them never calls it.
    strict = msgspec.structs.replace(settings, webhook_allow_private=False)
    with serve_receiver(new_secret()) as receiver:
        endpoint_id = await endpoint_for(settings, redis, receiver)
        admin = bootstrap.webhook_admin(strict, redis)
        async with delivery_client(client_kind) as client:
            dispatcher = bootstrap.dispatcher(strict, redis, client, "c1")
            note = made("g9", 4, "game_started")
            await dispatcher.store.enqueue("cy", [(note.kind, encode_notification(note))])
            deadline = time.monotonic() + 20
            while not await admin.dead_letters():
                assert time.monotonic() < deadline, "the delivery was never given up on"
                await dispatcher.step(block_ms=50)
                await asyncio.sleep(0.05)
        [letter] = await admin.dead_letters()
        assert letter.endpoint_id == endpoint_id
        assert "127.0.0.1" in letter.last_error and "private" in letter.last_error
        assert receiver.attempts == []


async def test_each_endpoint_gets_the_kinds_it_wants(settings: Settings, redis: Redis) -> None:
    admin = bootstrap.webhook_admin(settings, redis)
    every = await admin.add("http://127.0.0.1:9/every", [], None)
    starts = await admin.add("http://127.0.0.1:9/starts", ["game_started", "game_finished"], None)
    store = admin.store
    await store.ensure_group()
    notes = [made("g7", 1, "game_started"), made("g7", 2), made("g7", 3, "game_finished")]
    await store.enqueue("di", [(n.kind, encode_notification(n)) for n in notes])
    taken = await store.intake(await store.read_inbox("c1", 10, 0, 60_000), 0)
    assert taken == 5
    queued = {
        endpoint.id: [
            json.loads(n)["kind"] for n in await store.queued(endpoint.id, "di", MAX_PER_DELIVERY)
        ]
        for endpoint in (every, starts)
    }
    assert queued == {
        every.id: ["game_started", "your_turn", "game_finished"],
        starts.id: ["game_started", "game_finished"],
    }
    assert await store.read_inbox("c1", 10, 0, 60_000) == []  # acknowledged once moved


async def test_a_removed_endpoints_queues_are_dropped_and_nothing_is_sent(
    settings: Settings, redis: Redis
) -> None:
    with serve_receiver(new_secret(), []) as receiver:
        endpoint_id = await endpoint_for(settings, redis, receiver)
        admin = bootstrap.webhook_admin(settings, redis)
        async with delivery_client("aiohttp") as client:
            dispatcher = bootstrap.dispatcher(settings, redis, client, "c1")
            store = dispatcher.store
            notes = [made("g9", v) for v in (1, 2)]
            await store.enqueue("cy", [(n.kind, encode_notification(n)) for n in notes])
            await store.intake(await store.read_inbox("c1", 10, 0, 60_000), dispatcher.now_ms())
            assert await redis.llen(store.queue_key(endpoint_id, "cy")) == 2
            await admin.remove(endpoint_id)
            await dispatcher.step()
        assert await redis.exists(store.queue_key(endpoint_id, "cy")) == 0
        assert await redis.exists(store.delivery_key(endpoint_id, "cy")) == 0
        assert (await store.backlog())["ready"] == 0
        assert receiver.attempts == []


async def test_your_turn_is_not_pushed_while_the_player_streams(
    settings: Settings, redis: Redis
) -> None:
    with serve_receiver(new_secret()) as receiver:
        await endpoint_for(settings, redis, receiver)
        await Presence(redis, settings.key_prefix).renew("cy", "stream-1", 60_000)
        async with httpx.AsyncClient() as client:
            dispatcher = bootstrap.dispatcher(settings, redis, client, "c1")
            notes = [made("g3", 2, "game_started"), made("g3", 3), made("g3", 9, "game_finished")]
            await dispatcher.store.enqueue("cy", [(n.kind, encode_notification(n)) for n in notes])
            await dispatch_until(dispatcher, receiver.accepted)
        kinds = [n["kind"] for a in receiver.accepted() for n in a.body["notifications"]]
        assert kinds == ["game_started", "game_finished"]


class Dispatchers:
    """Dispatcher processes (`python -m workers.dispatcher`) for one test."""

    def __init__(self, settings: Settings) -> None:
        self.env = worker_env(settings)
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "workers.dispatcher", "--log-level=WARNING"],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=15)
            self.process = None


async def wait_for(check: object, limit_s: float = 60) -> None:
    deadline = time.monotonic() + limit_s
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "not reached in time"
        await asyncio.sleep(0.05)


async def test_a_game_reaches_the_endpoint_through_a_dispatcher_killed_mid_delivery(
    settings: Settings, redis: Redis, workers: Workers
) -> None:
    settings = msgspec.structs.replace(settings, webhook_timeout_s=2.0)
    with serve_receiver(new_secret(), ["stall"]) as receiver:
        receiver.stall_s = 30.0  # the first attempt hangs until its sender is killed
        await endpoint_for(settings, redis, receiver)
        facade = await bootstrap.connect(settings)
        dispatchers = Dispatchers(settings)
        try:
            workers.start(1)
            dispatchers.start()
            players = facade.players
            ada, bo = await players.register("Ada"), await players.register("Bo")
            game_id = (
                await players.create_game(ada.player_id, "race", {"players": 2, "target": 6}, None)
            ).game_id
            await players.join(ada.player_id, game_id, 0)
            await players.join(bo.player_id, game_id, 1)
            await wait_for(lambda: receiver.attempts)  # the first delivery is stalled now
            dispatchers.kill()
            dispatchers.start()
            for step in range(100):
                turn = await facade.reads.turn(game_id, None)
                if turn.finished:
                    break
                if not turn.to_act:
                    await asyncio.sleep(0.05)
                    continue
                seat = turn.to_act[0]
                legal = (await facade.reads.turn(game_id, seat)).legal_commands
                await facade.commands.submit(game_id, seat, f"m{step}", legal[0], "r")
                await facade.commands.wait_outcome(game_id, f"m{step}", 5)
            assert (await facade.reads.turn(game_id, None)).finished
            side = facade.notifications
            assert side is not None

            async def everything() -> set[str]:
                ids: set[str] = set()
                for player in (ada.player_id, bo.player_id):
                    page = await side.page(player, "0", 200)
                    ids |= {e.notification.id for e in page.notifications}
                return ids

            await wait_for(
                lambda: any(
                    i.endswith(":game_finished:1") for i in receiver.accepted_notification_ids()
                )
            )
            wanted = await everything()
            await wait_for(lambda: wanted <= receiver.accepted_notification_ids())
            assert receiver.attempts[0].answered == "stall"
            stalled = receiver.attempts[0].id
            assert stalled in {a.id for a in receiver.accepted()}  # delivered after the kill
            for attempt in receiver.accepted():
                text = json.dumps(attempt.body)
                for notification in attempt.body["notifications"]:
                    assert set(notification) <= ALLOWED_FIELDS, text
        finally:
            dispatchers.stop()
            await facade.close()


KILLS = 5


async def kill_while_delivering(
    dispatchers: Dispatchers, receiver: Receiver, rng: random.Random
) -> None:
    """SIGKILL the dispatcher once it is delivering (a new attempt reached the receiver),
    then start another."""
    seen = len(receiver.attempts)
    await wait_for(lambda: len(receiver.attempts) > seen, 30)
    await asyncio.sleep(rng.uniform(0.0, 0.04))  # within the receiver's 50 ms answer
    dispatchers.kill()
    dispatchers.start()


async def test_many_notifications_through_repeated_dispatcher_kills_none_lost(
    settings: Settings, redis: Redis, request: pytest.FixtureRequest
) -> None:
    total = 1000
    rng = random.Random(17)
    settings = msgspec.structs.replace(settings, webhook_timeout_s=1.0)
    with serve_receiver(new_secret()) as receiver:
        receiver.delay_s = 0.05  # slow enough that kills land mid-delivery
        await endpoint_for(settings, redis, receiver)
        store = bootstrap.webhook_store(redis, settings)
        dispatchers = Dispatchers(settings)
        dispatchers.start()
        wanted: set[str] = set()
        kills = 0
        try:
            for batch in range(20):
                notes = []
                for _ in range(total // 20):
                    note = made(f"g{rng.randrange(40)}", len(wanted) + 1, seat=rng.randrange(4))
                    notes.append(note)
                    wanted.add(note.id)
                for player in {n.game_id for n in notes}:
                    theirs = [n for n in notes if n.game_id == player]
                    await store.enqueue(
                        f"p-{player}", [(n.kind, encode_notification(n)) for n in theirs]
                    )
                if batch % 4 == 3 and kills < KILLS:
                    await kill_while_delivering(dispatchers, receiver, rng)
                    kills += 1
            while kills < KILLS:
                await kill_while_delivering(dispatchers, receiver, rng)
                kills += 1
            await wait_for(lambda: wanted <= receiver.accepted_notification_ids(), 120)
        finally:
            dispatchers.stop()
        assert kills >= KILLS
        assert wanted - receiver.accepted_notification_ids() == set()
        print(
            f"\n[webhooks] notifications={len(wanted)} kills={kills} "
            f"deliveries={len(receiver.accepted())} attempts={len(receiver.attempts)}"
        )


async def test_deliveries_survive_a_redis_kill_and_restart(tmp_path: Path) -> None:
    own = OwnRedis(tmp_path)
    own.start()
    settings = Settings(
        redis_url=own.url,
        webhook_retry_s="0.3,0.3,0.3,0.3,0.3,0.3",
        webhook_timeout_s=1.0,
        webhook_linger_ms=0,
        webhook_allow_private=True,  # the receivers listen on the loopback
    )
    client = Redis.from_url(own.url)
    dispatchers = Dispatchers(settings)
    try:
        with serve_receiver(new_secret(), [500] * 6) as receiver:
            await endpoint_for(settings, client, receiver)
            store = bootstrap.webhook_store(client, settings)
            wanted = set()
            for player in ("ada", "bo", "cy"):
                notes = [made(f"g-{player}", v) for v in range(1, 11)]
                wanted |= {n.id for n in notes}
                await store.enqueue(player, [(n.kind, encode_notification(n)) for n in notes])
            dispatchers.start()
            await wait_for(lambda: len(receiver.attempts) >= 3)  # some are being retried now
            own.kill()
            await asyncio.sleep(0.5)  # the dispatcher meets the outage
            own.start()
            await wait_for(lambda: wanted <= receiver.accepted_notification_ids(), 60)
    finally:
        dispatchers.stop()
        await client.aclose()
        own.kill()
