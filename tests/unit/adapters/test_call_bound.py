"""The turns a Redis Cluster client's calls wait for (`redis_clients.CallBound`)."""

from __future__ import annotations

import asyncio

import pytest
import redis.exceptions

from service.adapters.redis_clients import CallBound
from service.adapters.redis_outage import is_outage

pytestmark = pytest.mark.anyio


async def test_a_call_past_the_bound_waits_for_a_turn() -> None:
    bound = CallBound(1, wait_s=60)
    order: list[str] = []
    first_in = asyncio.Event()
    leave = asyncio.Event()

    async def first() -> None:
        async with bound.turn():
            order.append("first in")
            first_in.set()
            await leave.wait()
            order.append("first out")

    async def second() -> None:
        await first_in.wait()
        async with bound.turn():
            order.append("second in")

    # When a second call comes while the only turn is held, then the turn is given back
    waiting = asyncio.gather(first(), second())
    await first_in.wait()
    leave.set()
    await waiting

    # Then the second ran once the first was done, not beside it nor refused
    assert order == ["first in", "first out", "second in"]


async def test_a_call_that_waits_too_long_is_an_outage() -> None:
    bound = CallBound(1, wait_s=0.01)
    held = asyncio.Event()
    leave = asyncio.Event()

    async def holder() -> None:
        async with bound.turn():
            held.set()
            await leave.wait()

    holding = asyncio.create_task(holder())
    await held.wait()
    # When another call finds the only turn held for longer than the wait
    with pytest.raises(redis.exceptions.MaxConnectionsError) as refused:
        await _take(bound)
    leave.set()
    await holding

    # Then it is refused as Redis being unavailable (503), saying why
    assert is_outage(refused.value)
    assert "every one of the 1 connections" in str(refused.value)


async def test_a_call_made_inside_another_takes_no_second_turn() -> None:
    bound = CallBound(1, wait_s=60)
    # When a call holding the only turn makes another (a pipeline's retries), in its own task
    # too (redis-py runs a command on several nodes in tasks of its own)
    async with bound.turn():
        async with bound.turn():
            nested = True
        await asyncio.create_task(_take(bound))

    # Then neither waited for the turn it holds
    assert nested


async def _take(bound: CallBound) -> None:
    async with bound.turn():
        pass
