"""How tests take a game's lease and drain one game, through what the product uses: a drain
round's `open_round` and `Drainer.drain_round`."""

from __future__ import annotations

from service.core.pipeline.drain import Drainer, DrainReport
from service.core.ports.event_store import DrainRounds
from service.core.ports.records import RoundRequest


async def take_lease(store: DrainRounds, game_id: str, ttl_ms: int) -> int | None:
    """The game's lease as a drain round takes it: its fencing token, or None when another
    holder has it (or there is no such game)."""
    [game_round] = await store.open_round([RoundRequest(game_id)], ttl_ms, 1)
    return None if game_round is None else game_round.lease


async def drain_one(drainer: Drainer, game_id: str) -> DrainReport:
    """Apply up to one batch of one game's waiting commands: a drain round of that game."""
    [report] = (await drainer.drain_round([game_id])).reports
    return report
