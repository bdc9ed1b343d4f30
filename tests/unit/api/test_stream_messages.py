"""The messages of a view stream: views as updates come, keep-alive comments while idle."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any, cast

import pytest

from service.adapters.notifications import Update
from service.api.routes import stream

pytestmark = pytest.mark.anyio


def public_view(version: int) -> Update:
    """An update that carries the public view (so the stream reads nothing back)."""
    return Update(version, {b"json:p": b'{"version":%d}' % version})


async def from_queue(queue: asyncio.Queue[Update]) -> AsyncIterator[Update]:
    while True:
        yield await queue.get()


async def test_an_idle_stream_sends_keep_alive_comments_then_the_next_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with asyncio.timeout(5):  # a stream that sends nothing fails, rather than hangs
        await idle_stream_then_views(monkeypatch)


async def idle_stream_then_views(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stream, "KEEPALIVE_S", 0.02)
    updates: asyncio.Queue[Update] = asyncio.Queue()
    await updates.put(public_view(3))
    messages = cast(Any, stream.view_messages(cast(Any, None), "g1", None, from_queue(updates)))
    try:
        first = await anext(messages)
        assert (first.event, first.id, first.data) == ("view", "3", '{"version":3}')
        # Nothing new: a comment, and another, while the game stands still
        idle = [await anext(messages), await anext(messages)]
        assert [m.comment for m in idle] == ["keep-alive", "keep-alive"]
        assert all(not m.data and m.event is None for m in idle)
        # An update that came while idle is sent, and no older or equal one after it
        await updates.put(public_view(5))
        await updates.put(public_view(4))
        await updates.put(public_view(6))
        shown = [await anext(messages), await anext(messages)]
        assert [m.id for m in shown] == ["5", "6"]
    finally:
        await messages.aclose()
