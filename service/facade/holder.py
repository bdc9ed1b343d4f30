"""The API's handle on the application facade, connected on first use.

Connecting lazily lets the API start (and answer /healthz, and 503 problems elsewhere) while
Redis is down, and connect by itself once Redis is back: no restart needed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from service.facade.skald import Skald
from service.shared.settings import Settings

Connect = Callable[[Settings], Awaitable[Skald]]


class FacadeHolder:
    """Holds one connected `Skald`, connecting (again) whenever it has none."""

    def __init__(self, settings: Settings, connect: Connect) -> None:
        self.settings = settings
        self._connect = connect
        self._skald: Skald | None = None
        self._lock = asyncio.Lock()

    async def get(self) -> Skald:
        """The connected facade; raises Unavailable while Redis cannot be reached."""
        if self._skald is None:
            async with self._lock:
                if self._skald is None:
                    self._skald = await self._connect(self.settings)
        return self._skald

    async def close(self) -> None:
        """Close the facade's connections, if it ever connected."""
        skald, self._skald = self._skald, None
        if skald is not None:
            await skald.close()
