"""What notifications say (the game's kind, a forfeited seat) and when the first webhook
endpoint starts receiving them, through the facade, the drain and the projector."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import fakeredis
import msgspec
import pytest

from contracts.notifications import Notification
from contracts.stream import Clock
from service.adapters.webhooks import WebhookStore
from service.core.notifying.projector import NotificationProjector
from service.core.pipeline.deadlines import fire_due
from service.core.ports.notifications import decode_notification
from tests.fakes.race import RaceGame
from tests.unit.core.test_notification_feed import (
    feed,
    play_out,
    projector_of,
    settle,
    two_player_game,
)
from tests.unit.facade.harness import Harness, make_harness

pytestmark = pytest.mark.anyio
DAY_S = 86_400.0


@pytest.fixture
async def harness(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> AsyncIterator[Harness]:
    # Loopback webhook URLs are this test's own; a deployment refuses them by default.
    made = make_harness(fake_redis, rate_per_seat=0, webhook_allow_private=True)
    yield made
    await made.skald.close()


async def inbox(projector: NotificationProjector) -> list[Notification]:
    """The notifications queued for webhook delivery so far."""
    assert projector.webhooks is not None
    entries: Any = await projector.webhooks.redis.xrange(projector.webhooks.inbox)
    return [decode_notification(fields[b"n"]) for _, fields in entries]


async def test_every_notification_and_webhook_body_names_the_games_kind(
    harness: Harness,
) -> None:
    projector = projector_of(harness)
    assert harness.skald.webhooks is not None
    await harness.skald.webhooks.add("http://127.0.0.1:9/hook", [], None)
    game_id, ada, bo = await two_player_game(harness)
    await play_out(harness, game_id, projector)
    told = await feed(harness, ada) + await feed(harness, bo)
    assert told and {n.game for n in told} == {"race"}
    queued = await inbox(projector)
    assert queued and {n.game for n in queued} == {"race"}


def test_a_notification_stored_before_the_game_was_named_still_decodes() -> None:
    stored = b'{"id":"g:1:your_turn:0","game_id":"g","kind":"your_turn","version":1,"seat":0}'
    old = decode_notification(stored)
    assert (old.game_id, old.kind, old.game) == ("g", "your_turn", "")
    assert b'"game":"race"' in msgspec.json.encode(msgspec.structs.replace(old, game="race"))


async def test_a_forfeit_tells_the_player_a_bot_took_their_seat(harness: Harness) -> None:
    projector = projector_of(harness)
    clock = Clock(per_move_s=DAY_S, on_timeout="forfeit")
    game_id, ada, bo = await two_player_game(harness, clock)
    await settle(harness, projector)
    turn = await harness.skald.reads.turn(game_id, None)
    [silent] = turn.to_act
    deadlines = harness.skald.commands.deadlines
    assert deadlines is not None
    report = await fire_due(
        deadlines, harness.skald.store, harness.scheduler, turn.deadlines[silent]
    )
    assert report.fired == 1
    await settle(harness, projector)
    forfeiter = ada if silent == 0 else bo
    taken = [n for n in await feed(harness, forfeiter) if n.kind == "seat_taken_by_bot"]
    assert [(n.seat, n.game_id, n.game) for n in taken] == [(silent, game_id, "race")]
    other = bo if forfeiter == ada else ada
    assert "seat_taken_by_bot" not in [n.kind for n in await feed(harness, other)]


async def first_endpoint_then_a_move(harness: Harness, projector: NotificationProjector) -> None:
    """A game told its start with no endpoint registered; then one registered, and a move."""
    game_id, _, _ = await two_player_game(harness)
    await settle(harness, projector)
    assert await inbox(projector) == []
    assert harness.skald.webhooks is not None
    await harness.skald.webhooks.add("http://127.0.0.1:9/hook", ["your_turn"], None)
    turn = await harness.skald.reads.turn(game_id, None)
    [seat] = turn.to_act
    legal = (await harness.skald.reads.turn(game_id, seat)).legal_commands
    await harness.skald.commands.submit(game_id, seat, "first", legal[0], "r")
    await settle(harness, projector)
    queued = await inbox(projector)
    assert [(n.kind, n.seat) for n in queued] == [("your_turn", 1 - seat)]


async def test_the_first_endpoint_receives_the_very_next_notification(harness: Harness) -> None:
    await first_endpoint_then_a_move(harness, projector_of(harness))


async def test_so_it_does_with_the_inbox_on_another_connection(
    harness: Harness, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    # As on a cluster: the inbox apart from the feeds, queued by the projector itself.
    projector = projector_of(harness)
    server = fake_redis.connection_pool.connection_kwargs["server"]
    apart = fakeredis.aioredis.FakeRedis(server=server)
    projector.webhooks = WebhookStore(apart, harness.skald.settings.key_prefix)
    try:
        await first_endpoint_then_a_move(harness, projector)
    finally:
        await apart.aclose()
