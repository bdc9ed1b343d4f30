"""The messages of a live stream: events and a view patch per move, heartbeats while idle,
an end when the server closes; and a resumed feed's messages."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import jsonpatch
import msgspec
import pytest

from service.api.routes import stream
from service.core.ports.notifier import Update
from service.facade.live import LiveFeed, view_patch

from .conftest import Api, bearer, turn

pytestmark = pytest.mark.anyio

MOVE = {"type": "Move", "steps": 1}


async def from_queue(queue: asyncio.Queue[Update]) -> AsyncIterator[Update]:
    while True:
        yield await queue.get()


async def play(api: Api, game_id: str, tokens: list[str], moves: int) -> None:
    """`moves` moves by whoever is to act, each applied by the test's worker."""
    for _ in range(moves):
        now = await turn(api, game_id)
        seat, number = now["to_act"][0], now["version"]
        response = await api.client.post(
            f"/games/{game_id}/commands",
            json={"command_id": f"m-{number}", "command": MOVE},
            headers=bearer(tokens[seat]),
        )
        assert response.status_code == 202, response.text
        await api.drain()


async def events_for(api: Api, game_id: str, token: str, after: int = 0) -> list[Any]:
    response = await api.client.get(
        f"/games/{game_id}/events", params={"after": after}, headers=bearer(token)
    )
    events: list[Any] = response.json()["events"]
    return events


async def view_for(api: Api, game_id: str, token: str) -> Any:
    return (await api.client.get(f"/games/{game_id}/view", headers=bearer(token))).json()


async def test_a_stream_sends_each_events_then_a_patch_and_heartbeats_while_idle(
    api: Api,
) -> None:
    async with asyncio.timeout(20):  # a stream that sends nothing fails, rather than hangs
        # Given seat 0 following its game from the start
        game_id, tokens = await api.seated_game()
        feed = LiveFeed(api.skald.reads, game_id, 0)
        opening = await feed.catch_up()
        # Then it gets every event it may see, then its whole view, each with its version
        records = [msgspec.json.decode(m.data) for m in opening[:-1]]
        assert records == await events_for(api, game_id, tokens[0])
        assert [m.kind for m in opening] == ["event"] * len(records) + ["view"]
        view = msgspec.json.decode(opening[-1].data)
        assert opening[-1].version == view["version"] >= records[-1]["version"]
        assert view["players"] == [{"seat": 0, "name": ""}, {"seat": 1, "name": ""}]
        updates: asyncio.Queue[Update] = asyncio.Queue()
        closing = stream.StreamsClosing()
        messages = stream.live_messages(feed, from_queue(updates), 0.02, closing)
        try:
            # While nothing happens: heartbeat comments
            idle = [await anext(messages), await anext(messages)]
            assert [m.comment for m in idle] == ["keep-alive", "keep-alive"]
            assert all(not m.data and m.event is None for m in idle)
            # When two moves are made (one notification for both, as a batch commits them)
            before = view["version"]
            await play(api, game_id, tokens, 2)
            await updates.put(Update(before + 1))
            sent = []
            while not sent or sent[-1].event not in ("view", "patch"):
                message = await anext(messages)
                if message.comment is None:
                    sent.append(message)
            # Then the events since, then the change to the view sent before (the envelope's
            # players make a patch smaller than even a race's view)
            events = [msgspec.json.decode(m.data) for m in sent[:-1]]
            assert events == await events_for(api, game_id, tokens[0], before)
            assert [int(str(m.id)) for m in sent[:-1]] == [e["version"] for e in events]
            assert sent[-1].event == "patch"
            new_view = jsonpatch.apply_patch(view, msgspec.json.decode(str(sent[-1].data)))
            assert new_view == await view_for(api, game_id, tokens[0])
            assert int(str(sent[-1].id)) == new_view["version"] > before
            # An older or equal notification sends nothing new
            await updates.put(Update(before + 1))
            assert (await anext(messages)).comment == "keep-alive"
            # And when the server closes, the stream ends
            closing.close()
            with pytest.raises(StopAsyncIteration):
                await anext(messages)
        finally:
            await messages.aclose()


async def test_a_resumed_feed_sends_only_the_later_events_then_the_whole_view(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    await play(api, game_id, tokens, 3)
    every = await events_for(api, game_id, tokens[1])
    middle = every[len(every) // 2]["version"]
    # A feed resumed after a version: the events after it, once each, then the whole view
    messages = await LiveFeed(api.skald.reads, game_id, 1, after=middle).catch_up()
    assert [msgspec.json.decode(m.data) for m in messages[:-1]] == [
        e for e in every if e["version"] > middle
    ]
    assert messages[-1].kind == "view"
    assert msgspec.json.decode(messages[-1].data) == await view_for(api, game_id, tokens[1])
    # A feed asked for whole views never patches
    whole = LiveFeed(api.skald.reads, game_id, 1, patches=False)
    await whole.catch_up()
    await play(api, game_id, tokens, 1)
    assert [m.kind for m in await whole.catch_up()][-1] == "view"


def envelope(version: int, hexes: list[Any], **extra: Any) -> dict[str, Any]:
    return {"game_id": "g", "version": version, "seat": 0, "view": {"hexes": hexes, **extra}}


def test_a_view_change_is_a_guarded_json_patch_smaller_than_the_view() -> None:
    board = [{"terrain": "bog", "owner": None, "vikings": [1, 2]} for _ in range(200)]
    before = envelope(7, board, score=3, winner=None)
    changed = [dict(hexes) for hexes in board]
    changed[41] = {"terrain": "bog", "owner": 2, "vikings": [1, 2, 3]}
    after = envelope(9, changed, score=None, winner=2)
    patch = view_patch(before, after)
    # A patch names only what changed (a null stays a null), guarded by the base version
    assert patch[0] == {"op": "test", "path": "/version", "value": 7}
    assert jsonpatch.apply_patch(before, patch) == after
    assert len(msgspec.json.encode(patch)) * 10 < len(msgspec.json.encode(after))
    # Applied to another view, it fails rather than producing a wrong one
    with pytest.raises(jsonpatch.JsonPatchTestFailed):
        jsonpatch.apply_patch(envelope(8, board, score=3, winner=None), patch)


async def test_a_view_a_notification_carries_names_the_players_too(api: Api) -> None:
    # Given a feed of seat 1, and a commit's notification carrying the views it wrote
    game_id, tokens = await api.seated_game()
    feed = LiveFeed(api.skald.reads, game_id, 1, patches=False)
    await feed.catch_up()
    await play(api, game_id, tokens, 1)
    version, _ = await api.skald.reads.view(game_id, 1)
    stored = await api.skald.store.view(game_id, "json:1")
    assert stored is not None and b"players" not in stored[1]  # stored without names
    carried = Update(version, {b"json:1": stored[1]})
    # When the feed sends the carried view, it names the seated players as a read does
    [message] = [m for m in await feed.catch_up(carried) if m.kind == "view"]
    assert msgspec.json.decode(message.data) == await view_for(api, game_id, tokens[1])
    assert msgspec.json.decode(message.data)["players"] == [
        {"seat": 0, "name": ""},
        {"seat": 1, "name": ""},
    ]
