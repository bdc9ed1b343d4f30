"""Reading games through the facade: views, turns, filtered events, update streams."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import fakeredis
import msgspec
import pytest

from contracts.api import ViewEnvelope
from contracts.base import Event
from domain.chance import commitment
from service.core.pipeline.chain import genesis, link
from service.shared.errors import Conflict, Forbidden, InvalidInput, NotFound, RateLimited
from tests.fakes.race import RACE, RaceGame, race_config
from tests.unit.facade.harness import Harness, make_harness

pytestmark = pytest.mark.anyio


@pytest.fixture
async def harness(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> AsyncIterator[Harness]:
    harness = make_harness(fake_redis, sse_per_game=2)
    yield harness
    await harness.skald.close()


async def new_game(harness: Harness, target: int = 12) -> str:
    return (await harness.skald.commands.create_game("race", race_config(target=target))).game_id


async def play_to_the_end(harness: Harness, game_id: str) -> int:
    """Move 3 steps on every turn until the race is over; the number of commands sent."""
    sent = 0
    while not (turn := await harness.skald.reads.turn(game_id, None)).finished:
        seat = turn.to_act[0]
        await harness.skald.commands.submit(
            game_id, seat, f"c{sent}", {"type": "Move", "steps": 3}, "r"
        )
        await harness.run_jobs()
        sent += 1
    return sent


def boosts_in(records: list[Any]) -> dict[int, Any]:
    return {r.event["seat"]: r.event["value"] for r in records if r.event["type"] == "BoostDealt"}


async def test_each_seat_sees_its_own_boost_and_the_public_sees_none(harness: Harness) -> None:
    game_id = await new_game(harness)

    views = {
        seat: msgspec.json.decode(
            (await harness.skald.reads.view(game_id, seat))[1], type=ViewEnvelope
        )
        for seat in (None, 0, 1)
    }

    assert views[None].view["my_boost"] is None
    assert {views[0].view["my_boost"], views[1].view["my_boost"]} <= {1, 2, 3}
    assert {(v.seat, v.version) for v in views.values()} == {(None, 5), (0, 5), (1, 5)}


async def test_a_view_in_msgpack_is_the_same_envelope(harness: Harness) -> None:
    game_id = await new_game(harness)

    version, as_json = await harness.skald.reads.view(game_id, 0, "json")
    same_version, as_msgpack = await harness.skald.reads.view(game_id, 0, "msgpack")

    assert version == same_version
    assert msgspec.json.decode(as_json, type=ViewEnvelope) == msgspec.msgpack.decode(
        as_msgpack, type=ViewEnvelope
    )


async def test_views_refuse_bad_formats_seats_and_games(harness: Harness) -> None:
    game_id = await new_game(harness)

    with pytest.raises(InvalidInput):
        await harness.skald.reads.view(game_id, None, "xml")
    with pytest.raises(Forbidden):
        await harness.skald.reads.view(game_id, 5)
    with pytest.raises(NotFound):
        await harness.skald.reads.view("nope", None)


async def test_views_and_turns_move_on_with_the_game(harness: Harness) -> None:
    game_id = await new_game(harness)
    turn = await harness.skald.reads.turn(game_id, None)
    seat = turn.to_act[0]
    mine = await harness.skald.reads.turn(game_id, seat)
    theirs = await harness.skald.reads.turn(game_id, 1 - seat)

    await harness.skald.commands.submit(game_id, seat, "c1", {"type": "Move", "steps": 2}, "r")
    await harness.run_jobs()
    version, public = await harness.skald.reads.view(game_id, None)

    assert turn.legal_commands == [] and theirs.legal_commands == []
    assert {"type": "Boost"} in mine.legal_commands and len(mine.legal_commands) == 4
    assert version == 6
    assert msgspec.json.decode(public)["view"]["to_act"] == [1 - seat]


async def test_events_hide_other_seats_boosts_while_the_game_goes_on(harness: Harness) -> None:
    game_id = await new_game(harness)

    public = (await harness.skald.reads.events_after(game_id, 0, None, 100)).events
    seat0 = (await harness.skald.reads.events_after(game_id, 0, 0, 100)).events

    assert boosts_in(public) == {0: None, 1: None}
    assert boosts_in(seat0)[1] is None and boosts_in(seat0)[0] in {1, 2, 3}
    assert {r.hash for r in public + seat0} == {""}  # no chain values before the end
    assert [r.version for r in public] == [1, 2, 3, 4, 5]


async def test_after_the_end_every_event_shows_and_the_chain_and_seed_check_out(
    harness: Harness,
) -> None:
    game_id = await new_game(harness, target=6)
    commitment_sent = (await harness.skald.reads.events_after(game_id, 0, None, 1)).events[0]

    await play_to_the_end(harness, game_id)
    page = await harness.skald.reads.events_after(game_id, 0, None, 1000)

    chain = genesis(game_id)
    codec_events = await harness.skald.store.read(game_id)
    for record, stored in zip(page.events, codec_events, strict=True):
        chain = link(chain, stored.data)
        assert record.hash == chain.hex()
    revealed = page.events[-1].event
    assert revealed["type"] == "SeedRevealed"
    assert commitment(bytes.fromhex(revealed["seed_hex"])) == (commitment_sent.event["seed_sha256"])
    assert None not in boosts_in(page.events).values()
    assert page.last_version == len(page.events)
    assert await harness.skald.reads.open_games(None, 10) == []  # over: out of the lobby


async def test_event_pages_follow_after_and_limit(harness: Harness) -> None:
    game_id = await new_game(harness)

    page = await harness.skald.reads.events_after(game_id, 2, None, 2)
    empty = await harness.skald.reads.events_after(game_id, 5, None, 10)

    assert [r.version for r in page.events] == [3, 4]
    assert page.last_version == 5
    assert empty.events == []
    with pytest.raises(InvalidInput):
        await harness.skald.reads.events_after(game_id, -1, None, 10)


class _Silent(RaceGame):
    """The race, with every game event hidden while it is in play."""

    name = "race-silent"

    def visible_event(self, event: Event, seat: int | None) -> Event | None:
        return None


async def test_events_a_game_hides_are_not_served_before_the_end(
    harness: Harness,
) -> None:
    from domain import games

    games.register(_Silent())
    try:
        game_id = (await harness.skald.commands.create_game("race-silent", race_config())).game_id

        page = await harness.skald.reads.events_after(game_id, 0, 0, 100)

        assert [r.event["type"] for r in page.events] == ["GameCreated"]
        assert page.last_version == 5
    finally:
        games.unregister("race-silent")


async def test_updates_start_at_the_current_version_and_follow_the_game(
    harness: Harness,
) -> None:
    game_id = await new_game(harness)
    updates = harness.skald.reads.updates(game_id)
    first = await anext(updates)
    seat = RACE.to_act(await _state(harness, game_id))[0]

    await harness.skald.commands.submit(game_id, seat, "c1", {"type": "Move", "steps": 1}, "r")
    await harness.run_jobs()
    second = await asyncio.wait_for(anext(updates), 1.0)
    await updates.aclose()

    assert (first.version, second.version) == (5, 6)
    assert harness.skald.notifier.listeners(game_id) == 0


async def test_an_update_carries_each_viewers_view_at_its_version(harness: Harness) -> None:
    game_id = await new_game(harness)
    updates = harness.skald.reads.updates(game_id)
    await anext(updates)
    seat = RACE.to_act(await _state(harness, game_id))[0]

    await harness.skald.commands.submit(game_id, seat, "c1", {"type": "Move", "steps": 1}, "r")
    await harness.run_jobs()
    update = await asyncio.wait_for(anext(updates), 1.0)
    await updates.aclose()

    # Each viewer's stored view, which the read side names the players in (as a read does)
    reads = harness.skald.reads
    for viewer in (None, 0, 1):
        carried = update.view_for(viewer)
        assert carried is not None
        assert await reads.with_players(game_id, carried) == (await reads.view(game_id, viewer))[1]
    assert msgspec.json.decode(update.view_for(1) or b"")["seat"] == 1


async def test_update_streams_per_game_are_bounded(harness: Harness) -> None:
    game_id = await new_game(harness)
    streams = [harness.skald.reads.updates(game_id) for _ in range(3)]
    await anext(streams[0])
    await anext(streams[1])

    with pytest.raises(RateLimited) as raised:
        await anext(streams[2])
    await streams[0].aclose()
    reopened_stream = harness.skald.reads.updates(game_id)
    reopened = await anext(reopened_stream)
    await reopened_stream.aclose()
    await streams[1].aclose()

    assert raised.value.code == "stream.too_many"
    assert reopened.version == 5
    with pytest.raises(NotFound):
        await anext(harness.skald.reads.updates("nope"))


async def _state(harness: Harness, game_id: str) -> Any:
    from service.core.pipeline.session import load_session

    return (await load_session(harness.skald.store, game_id)).state


async def test_events_of_a_game_under_other_rules_are_refused_clearly(
    harness: Harness, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    game_id = await new_game(harness)
    await fake_redis.hset(f"t:game:{{{game_id}}}:meta", "rv", "0-old")

    with pytest.raises(Conflict) as raised:
        await make_harness(fake_redis).skald.reads.events_after(game_id, 0, None, 10)

    assert raised.value.code == "game.rules_version"
    assert "0-old" in raised.value.message


async def _records(harness: Harness, game_id: str, after: int, viewer: int | None) -> Any:
    page = await harness.skald.reads.events_after(game_id, after, viewer, 100)
    return [(record.version, msgspec.json.encode(record)) for record in page.events]


async def test_an_update_carries_each_viewers_records_of_its_events_as_events_gives_them(
    harness: Harness, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    game_id = await new_game(harness, target=6)
    updates = harness.skald.reads.updates(game_id)
    seen = (await anext(updates)).version
    sent = 0
    # When the race is played to its end, each update read as it comes
    while not (turn := await harness.skald.reads.turn(game_id, None)).finished:
        command = {"type": "Move", "steps": 3}
        await harness.skald.commands.submit(game_id, turn.to_act[0], f"c{sent}", command, "r")
        await harness.run_jobs()
        sent += 1
        update = await asyncio.wait_for(anext(updates), 1.0)
        # Then every viewer's records of the commit's events are those GET /events serves
        # it (the last commit's: with the chain values and the seed, the game being over)
        for viewer in (None, 0, 1):
            carried = update.events_for(viewer, seen)
            assert carried == await _records(harness, game_id, seen, viewer)
            assert carried and carried[-1][0] == update.version
        last_public = update.events_for(None, seen) or []
        # And only a feed at the version the events follow may take them as they are
        assert update.events_for(0, seen - 1) is None
        seen = update.version
    await updates.aclose()
    # The last commit revealed the seed: its records say so, with their chain values
    assert msgspec.json.decode(last_public[-1][1])["event"]["type"] == "SeedRevealed"
    assert all(msgspec.json.decode(data)["hash"] for _, data in last_public)
    # The records ride to the notification only: the stored views hold none of them
    views_keys = [key async for key in fake_redis.scan_iter(match=f"*{game_id}*:views")]
    assert views_keys
    fields = await fake_redis.hkeys(views_keys[0])
    assert fields and not [name for name in fields if name.startswith(b"live:")]


async def test_an_update_carries_no_record_a_viewer_may_not_see(harness: Harness) -> None:
    from domain import games

    games.register(_Silent())
    try:
        game_id = (await harness.skald.commands.create_game("race-silent", race_config())).game_id
        updates = harness.skald.reads.updates(game_id)
        seen = (await anext(updates)).version
        seat = RACE.to_act(await _state(harness, game_id))[0]
        await harness.skald.commands.submit(game_id, seat, "c1", {"type": "Move", "steps": 1}, "r")
        await harness.run_jobs()
        update = await asyncio.wait_for(anext(updates), 1.0)
        await updates.aclose()
        # Every game event is withheld while the game goes on: nobody's records carry one
        for viewer in (None, 0, 1):
            assert update.events_for(viewer, seen) == []
            assert await _records(harness, game_id, seen, viewer) == []
        assert update.version > seen
    finally:
        games.unregister("race-silent")
