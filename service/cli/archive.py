"""What the history sub-commands (replay, audit, verify, rebuild-projections) share.

They read the store directly, as an operator with its credentials, so they see everything,
hidden information of games in progress included. The Redis is SKALD_REDIS_URL, or the
embedded Redis a running `skald serve` shares, or else one started over SKALD_DATA_DIR for the
command's duration (so a game kept by `skald demo` can be read after it stopped).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import TypeVar

import redis.exceptions
from rich.console import Console

from service import bootstrap
from service.facade.history_side import HistoryService
from service.shared.errors import Unavailable
from service.shared.logging import configure_logging
from service.shared.settings import Settings, load_plugins

from .processes import backing_redis

T = TypeVar("T")


def with_history(work: Callable[[HistoryService], Awaitable[T]]) -> T:
    """Run `work` on the stored games; Unavailable (exit 1) when Redis cannot be reached."""
    # Output is the command's; logs (an embedded Redis starting, warnings) go to stderr.
    configure_logging("WARNING", sys.stderr)
    settings = Settings.from_env()
    load_plugins(settings)
    with backing_redis(settings, share_running=True) as ready:
        return asyncio.run(_run(ready, work))


async def _run(settings: Settings, work: Callable[[HistoryService], Awaitable[T]]) -> T:
    client = bootstrap.event_client(settings)
    try:
        return await work(bootstrap.history(client, settings))
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
        raise Unavailable("redis.unavailable", f"cannot reach Redis: {exc}") from None
    finally:
        await client.aclose()


def console() -> Console:
    """The console the sub-commands print to: no highlighting, long lines kept whole."""
    return Console(highlight=False, soft_wrap=True)
