"""Waiting for a game's next version with a deadline, as `wait` on a command or a turn does.

Only the wait on the notifier's queue is ever cut short by the deadline, never a Redis call:
a call cancelled half-way (a wait of a millisecond or two ends in the middle of one) once left
requests hanging past their client's timeout.
"""

from __future__ import annotations

import asyncio

from service.core.ports.notifier import Update


def deadline_after(timeout_s: float) -> float:
    """The event loop's time `timeout_s` seconds from now."""
    return asyncio.get_running_loop().time() + timeout_s


async def next_update(updates: asyncio.Queue[Update], deadline: float) -> bool:
    """Wait for the game's next update until `deadline` (the loop's clock); False once past."""
    remaining = deadline - asyncio.get_running_loop().time()
    if remaining <= 0:
        return False
    try:
        async with asyncio.timeout(remaining):
            await updates.get()
    except TimeoutError:
        return False
    return True
