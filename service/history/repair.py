"""Operator commands on a damaged game: repair what the events can rebuild, or quarantine it.

A repair rebuilds what is derived from the events: every view and turn projection (through
the workers' own projection writer) and the head's chain value when the chain itself holds
and ends at the head's version; and it marks a game with waiting commands ready and pending,
so a worker comes for them. It says what it cannot repair: events are the record, and a lost
event, a lost secret, a seat's lost token or a lost meta record cannot be made up from
anything else. It never rewrites the evidence of a loss (a head past the stream's last event
keeps its chain value), and a game that still fails one of verify's checks once repaired is
reported as not repaired.

A quarantine takes a game out of service: its meta, views and command records are set aside
(every read and command then answers `game.quarantined`) until it is released.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from service.core.pipeline.chain import first_broken_link
from service.core.ports.event_store import GameMissing, HistoryStore
from service.core.ports.inspection import KeyRepairs
from service.history.loading import read_game
from service.history.rebuild import ProjectionWriter, rebuild_projections
from service.history.verify import check_records, verify_game
from service.shared.errors import GameDamaged


@dataclass
class RepairReport:
    """What a repair did to one game, and what it could not repair."""

    game_id: str
    repaired: list[str] = field(default_factory=list)
    unrepairable: list[str] = field(default_factory=list)


class GameMaintenance:
    """Repair and quarantine of games: `keys` inspects and changes a game's keys in the
    store, `store` reads its record, `writer` rebuilds its projections."""

    def __init__(self, keys: KeyRepairs, store: HistoryStore, writer: ProjectionWriter) -> None:
        self.inspector = keys
        self.store = store
        self.writer = writer

    async def quarantine(self, game_id: str, reason: str) -> bool:
        """Take the game out of service; False when it already is."""
        if not (await self.inspector.inspect(game_id)).present:
            raise GameMissing(game_id)
        return await self.inspector.quarantine(game_id, reason)

    async def release(self, game_id: str) -> bool:
        """Put a quarantined game back in service; False when it was not quarantined."""
        return await self.inspector.release(game_id)

    async def repair(self, game_id: str) -> RepairReport:
        """Rebuild what the events can rebuild; name what cannot be repaired."""
        report = RepairReport(game_id)
        keys = await self.inspector.inspect(game_id)
        if keys.quarantine is not None:
            report.unrepairable.append(
                f"quarantined ({keys.quarantine}): release it first, then repair it"
            )
            return report
        if not keys.present:
            raise GameMissing(game_id)
        if "meta" not in keys.present:
            report.unrepairable.append(
                "the meta record is lost (the game's facts, head, inbox cursor and player "
                "names): not rebuilt; quarantine the game"
            )
            return report
        try:
            stored = await read_game(self.store, game_id)
        except GameDamaged as exc:
            report.unrepairable.append(
                f"{exc.damage}: events are the record, a lost one cannot be rebuilt; "
                "quarantine the game"
            )
            return report
        last = stored.events[-1].version if stored.events else 0
        if first_broken_link(game_id, stored.events) is not None:
            report.unrepairable.append("the hash chain is broken: an event was changed")
        elif last != stored.head.version:
            # The head is the evidence of what the stream held: never rewritten to fit it.
            report.unrepairable.append(
                f"the head says version {stored.head.version} but the stream ends at version "
                f"{last}: events are the record, a lost one cannot be rebuilt (the head's "
                "chain value is left as it is); quarantine the game"
            )
        elif stored.events and stored.head.hash != stored.events[-1].hash:
            await self.inspector.set_head_hash(game_id, stored.events[-1].hash)
            report.repaired.append("the head's chain value, set to the last event's")
        rebuilt = await rebuild_projections(self.store, self.writer, game_id)
        if rebuilt.status == "failed":
            report.unrepairable.append(f"projections not rebuilt: {rebuilt.detail}")
        else:
            report.repaired.append(f"views and turns rebuilt at version {rebuilt.version}")
        records = check_records(stored, keys, await self.store.seed(game_id))
        if records.status == "failed":
            report.unrepairable.append(records.detail)
        queued = sum(1 for command in stored.commands if not command.decided)
        marked = bool(queued) and "lease" not in keys.present
        if marked:
            await self.inspector.mark_waiting(game_id)
            waiting = f"{queued} command{'s' if queued > 1 else ''} waiting"
            report.repaired.append(f"marked ready for a worker ({waiting})")
        if not report.unrepairable:
            await self._verify_after(report, marked)
        return report

    async def _verify_after(self, report: RepairReport, marked: bool) -> None:
        """Verify's checks once repaired: a check still failing is left unrepaired (the
        liveness of a game just marked ready is the worker's to restore, not the repair's)."""
        verification = await verify_game(self.store, report.game_id, self.inspector)
        for check in verification.checks:
            if check.status != "failed" or (marked and check.name == "liveness"):
                continue
            report.unrepairable.append(f"verify still fails its {check.name} check: {check.detail}")
