"""Provable fairness: the seed against its commitment, and every draw re-derived from it."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from domain.games import get_game
from service.adapters.store.redis_store import RedisEventStore
from service.core.ports.event_store import EventStore
from service.facade.history_side import HistoryService
from tests.fakes.race import RaceConfig
from tests.unit.history.conftest import PREFIX
from tests.unit.history.playthrough import PlayedGame, play_through_store, seed_of
from tests.unit.history.tamper import edit_events, stored_event, versions_of

pytestmark = pytest.mark.anyio


async def finished_game(store: EventStore, name: str = "race", seed: int = 21) -> PlayedGame:
    game = get_game(name)
    config = RaceConfig(players=3, target=15) if name == "race" else game.example_configs()[0]
    return await play_through_store(store, game, config, seed_of(seed), "g1")


@pytest.mark.parametrize("name", ["race", "fjords", "looot"])
async def test_a_finished_game_is_proved_fair(store: EventStore, name: str) -> None:
    # Given a game played to the end
    played = await finished_game(store, name)
    # When its fairness is checked
    report = await HistoryService(store).fairness("g1")
    # Then the revealed seed is the committed one and re-derives every event of the game
    assert report.status == "fair", report
    assert report.seed_hex == played.seed.hex()
    assert report.seed_sha256 == hashlib.sha256(played.seed).hexdigest()
    assert report.commitment_holds is True
    # every version but GameCreated and SeedRevealed is a game event
    assert report.events_rederived == played.last_version - 2
    applied = [sent for sent in played.sent if not sent.refused]
    assert report.commands_rederived == len(applied)
    assert report.mismatch is None


async def test_the_seed_stays_secret_while_the_game_goes_on(store: EventStore) -> None:
    played = await play_through_store(
        store, get_game("race"), RaceConfig(players=2), seed_of(22), "g1", stop_after=4
    )
    report = await HistoryService(store).fairness("g1")
    assert report.status == "pending"
    assert report.seed_hex is None
    assert report.seed_sha256 == hashlib.sha256(played.seed).hexdigest()
    assert played.seed.hex() not in repr(report)


async def test_a_revealed_seed_that_does_not_match_the_commitment_is_detected(
    redis_store: RedisEventStore,
) -> None:
    # Given a finished game whose revealed seed was replaced, the chain recomputed to hide it
    played = await finished_game(redis_store)
    other_seed = seed_of(999)
    last = played.last_version

    def swap_seed(event: dict[str, Any]) -> dict[str, Any]:
        return {**event, "seed_hex": other_seed.hex()}

    await edit_events(redis_store.redis, PREFIX, "g1", {last: swap_seed}, rechain=True)
    service = HistoryService(redis_store)
    # When fairness is checked
    report = await service.fairness("g1")
    # Then the commitment does not hold, and the detail says so with both hashes
    assert report.status == "unfair"
    assert report.commitment_holds is False
    assert hashlib.sha256(other_seed).hexdigest() in report.detail
    assert report.seed_sha256 in report.detail
    # And the draws that seed gives are not the recorded ones either: named by version
    assert report.mismatch is not None and 2 <= report.mismatch.version < last
    # And verification fails on fairness alone: the chain was recomputed
    checks = {check.name: check for check in (await service.verify("g1")).checks}
    assert checks["chain"].status == "ok"
    assert checks["fairness"].status == "failed"


DRAWN = {
    "race": ("Moved", "roll"),
    "fjords": ("TileDrawn", "tile"),
    "looot": ("LongshipDrawn", "longship"),
}


@pytest.mark.parametrize("name", sorted(DRAWN))
async def test_a_tampered_random_draw_is_detected_at_its_version(
    redis_store: RedisEventStore, name: str
) -> None:
    # Given a finished game in which one recorded random draw was changed, chain recomputed
    await finished_game(redis_store, name)
    event_type, drawn = DRAWN[name]
    # (a draw after the opening: it is re-derived by deciding its command again)
    version = (await versions_of(redis_store.redis, PREFIX, "g1", event_type))[3]
    original = await stored_event(redis_store.redis, PREFIX, "g1", version)

    def another_draw(event: dict[str, Any]) -> dict[str, Any]:
        return {**event, drawn: event[drawn] + 1}

    await edit_events(redis_store.redis, PREFIX, "g1", {version: another_draw}, rechain=True)
    service = HistoryService(redis_store)
    # When fairness is checked
    report = await service.fairness("g1")
    # Then the first mismatch is that version: the seed's draw against the recorded one
    assert report.status == "unfair"
    assert report.commitment_holds is True
    assert report.mismatch is not None
    assert report.mismatch.version == version
    assert report.mismatch.expected == original
    assert report.mismatch.recorded == another_draw(original)
    # And the chain alone would not have told
    checks = {check.name: check for check in (await service.verify("g1")).checks}
    assert checks["chain"].status == "ok"
    assert checks["fairness"].status == "failed" and checks["fairness"].version == version


async def test_a_tampered_setup_draw_is_detected(redis_store: RedisEventStore) -> None:
    # Given a race whose opening deal of seat 1's secret boost was changed afterwards
    await finished_game(redis_store)
    version = (await versions_of(redis_store.redis, PREFIX, "g1", "BoostDealt"))[1]

    def bigger_boost(event: dict[str, Any]) -> dict[str, Any]:
        return {**event, "value": event["value"] % 3 + 1}

    await edit_events(redis_store.redis, PREFIX, "g1", {version: bigger_boost}, rechain=True)
    report = await HistoryService(redis_store).fairness("g1")
    assert report.status == "unfair"
    assert report.mismatch is not None and report.mismatch.version == version
    assert "differs" in report.mismatch.reason


async def test_an_event_no_received_command_produced_is_detected(
    redis_store: RedisEventStore,
) -> None:
    # Given a finished race where one move's event lost its link to the command that made it
    played = await finished_game(redis_store)
    applied = next(sent for sent in played.sent if not sent.refused and sent.version_before > 6)
    version = applied.version_before + 1
    await edit_events(
        redis_store.redis, PREFIX, "g1", {}, rechain=True, unlink=frozenset({version})
    )
    service = HistoryService(redis_store)
    # When fairness is checked, then that event is named as produced by no command
    report = await service.fairness("g1")
    assert report.status == "unfair"
    assert report.mismatch is not None and report.mismatch.version == version
    assert report.mismatch.reason == "no received command produced this event"
    # And verification sees the command's record disagree with the events
    checks = {check.name: check for check in (await service.verify("g1")).checks}
    assert checks["outcomes"].status == "failed"
    assert applied.command_id in checks["outcomes"].detail
