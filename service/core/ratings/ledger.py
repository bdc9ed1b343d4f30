"""The ratings ledger: log each finished game's rated result once, in order, and fold the log
into ratings, leaderboards and histories.

OpenSkill's updates depend on their order, so the ratings are the fold of an ordered,
append-only log, never updated by a game directly: the worker logs a game right after the
round that finished it, the sweeper logs any finished game the worker missed, and the fold
stores its progress with a compare-and-set, so whichever process folds, each entry is folded
once, in log order. Rebuilding folds the same log again and gets the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec
import structlog

from contracts.ratings import RatingChange
from service.core.ports.ratings import Folded, RatingsLog, SeatUpdate
from service.core.ratings.finished import FinishedGame, GameRecords, read_finished
from service.core.ratings.openskill_fold import (
    STANDING_DECODER,
    STANDING_ENCODER,
    first_standing,
    rate,
)
from service.core.ratings.results import RESULT_DECODER, RESULT_ENCODER
from service.core.ratings.variants import rating_key

log = structlog.get_logger("skald.ratings")

FOLD_BATCH = 200  # log entries folded per compare-and-set
HISTORY_ENCODER = msgspec.msgpack.Encoder()


@dataclass
class LedgerReport:
    """What a catch-up or rebuild did."""

    logged: int = 0  # games newly logged (rated or not)
    rated: int = 0  # of them, games that rate their players
    folded: int = 0  # log entries folded into the ratings
    failed: dict[str, str] | None = None  # game id -> why it could not be read


class RatingLedger:
    """Logs finished games' results (read from `records`) and folds them (in `store`)."""

    def __init__(self, records: GameRecords, store: RatingsLog) -> None:
        self.records = records
        self.store = store

    async def game_finished(self, game_id: str) -> bool:
        """Log a game that just finished (once) and fold; whether it was logged now."""
        finished = await read_finished(self.records, game_id)
        if finished is None:
            return False
        logged = await self._log(finished)
        await self.fold()
        return logged

    async def catch_up(self, game_ids: list[str]) -> LedgerReport:
        """Log every finished game among `game_ids` not logged yet, in the order they
        finished, then fold."""
        report = LedgerReport(failed={})
        found: list[FinishedGame] = []
        for game_id in await self.store.unlogged(game_ids):
            try:
                finished = await read_finished(self.records, game_id)
            except Exception as exc:  # a damaged or foreign game: named, the others go on
                assert report.failed is not None
                report.failed[game_id] = repr(exc)
                continue
            if finished is not None:
                found.append(finished)
        for finished in sorted(found, key=lambda f: (f.finished_ms, f.game_id)):
            if await self._log(finished):
                report.logged += 1
                report.rated += finished.result is not None
        report.folded = await self.fold()
        return report

    async def rebuild(self, game_ids: list[str], from_games: bool) -> LedgerReport:
        """Fold the ratings again from the log, after logging the finished games missing from
        it (`from_games`: the log too is dropped and logged again from the games)."""
        await self.store.reset(with_log=from_games)
        return await self.catch_up(game_ids)

    async def _log(self, finished: FinishedGame) -> bool:
        data = None if finished.result is None else RESULT_ENCODER.encode(finished.result)
        logged, place = await self.store.log_result(finished.game_id, data)
        if logged and place:
            log.info("rated_result_logged", game_id=finished.game_id, place=place)
        return logged

    async def fold(self) -> int:
        """Fold every log entry not folded yet into the ratings; how many were folded."""
        total = 0
        while True:
            folded = await self.store.folded()
            entries = await self.store.entries(folded.place, FOLD_BATCH)
            if not entries:
                return total
            updates = await self._updates(entries)
            reached = Folded(entries[-1][0], folded.epoch)
            if await self.store.store_fold(folded, reached, updates):
                total += len(entries)

    async def _updates(self, entries: list[tuple[int, bytes]]) -> list[SeatUpdate]:
        results = [(place, RESULT_DECODER.decode(data)) for place, data in entries]
        pairs = {
            (rating_key(result.game, result.variant), seat.player_id): None
            for _, result in results
            for seat in result.seats
        }
        stored = await self.store.standings_of(list(pairs))  # every standing, one round trip
        known = {pair: STANDING_DECODER.decode(data) for pair, data in stored.items()}
        updates: list[SeatUpdate] = []
        for place, result in results:
            key = rating_key(result.game, result.variant)
            players = [seat.player_id for seat in result.seats]
            before = {p: known.get((key, p)) or first_standing() for p in players}
            after = rate(result, before)
            for seat in result.seats:
                standing = after[seat.player_id]
                known[key, seat.player_id] = standing
                change = RatingChange(
                    game_id=result.game_id,
                    game=result.game,
                    variant=result.variant,
                    seq=place,
                    rank=seat.rank,
                    seats=len(result.seats),
                    display=standing.display,
                    mu=standing.mu,
                    sigma=standing.sigma,
                    display_before=before[seat.player_id].display,
                )
                updates.append(
                    SeatUpdate(
                        seat.player_id,
                        key,
                        STANDING_ENCODER.encode(standing),
                        standing.display,
                        place,
                        HISTORY_ENCODER.encode(change),
                    )
                )
        return updates
