"""Games that waited for their players too long: the workers cancel them.

A game a player created waits for its players until every seat is held or its creator starts
or cancels it. One left waiting longer than `open_game_ttl_s` is cancelled by the service's
own cancel (`sys:cancel`, `CancelGame(by="", reason="expired")`) on its inbox, ordered against
a join's start like any command: a game that started first refuses it. Its seated players are
told by the notification projector (`game_cancelled`), and the cancel's commit frees their
seats from their limit (a game over leaves its players' index).
"""

from __future__ import annotations

import structlog

from contracts.system import CancelGame
from domain.table import CANCEL_ID
from service.core.pipeline.lifecycle import queue_system
from service.core.ports.event_store import CommandStore
from service.core.ports.players import OpenRooms
from service.core.ports.scheduling import DrainScheduler

log = structlog.get_logger("skald.sweeper")

EXPIRED = "expired"  # the reason of a cancel for waiting too long


async def expire_open_rooms(
    rooms: OpenRooms, store: CommandStore, scheduler: DrainScheduler, ttl_ms: int, limit: int
) -> list[str]:
    """Queue the cancel of every game waiting for its players longer than `ttl_ms` (at most
    `limit`, oldest first); the games."""
    before = await rooms.now_ms() - ttl_ms
    expired = []
    for game_id in await rooms.opened_before(before, limit):
        try:
            await queue_system(store, scheduler, game_id, CANCEL_ID, CancelGame("", EXPIRED))
        except Exception as exc:  # a game gone from the store: nothing left to cancel
            log.warning("open_room_expiry_failed", game_id=game_id, error=repr(exc))
        await rooms.closed(game_id)
        expired.append(game_id)
    return expired
