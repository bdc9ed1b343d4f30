"""`skald verify`, `repair` and `quarantine` on damaged games, as subprocesses on the real Redis."""

from __future__ import annotations

import msgspec
import pytest

from contracts.history import GameVerification
from domain.games import get_game
from service.adapters.store.redis_store import RedisEventStore
from service.core.codec import codec_for
from service.shared.settings import Settings
from tests.fakes.race import RaceConfig
from tests.integration.history.test_cli import skald
from tests.unit.history.playthrough import play_through_store, seed_of
from tests.unit.history.tamper import (
    delete_event,
    delete_keys,
    garble_records,
    overwrite_view,
    strand_command,
    strip_inbox_entry,
)

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

# Each damage the probe found, done to a game of its own, and what verify must say of it.
EXPECTED = {
    "meta-lost": ("records", "the meta record is missing"),
    "secret-lost": ("records", "the secret (seed) is missing for a live game"),
    "seats-lost": ("records", "seat records missing for seats 0, 1, 2"),
    "frozen": ("liveness", "frozen: 1 command queued for "),
    "event-lost": ("stream", "event 12 is missing from the stream"),
    "stream-lost": ("stream", "the head says version "),
    "view-corrupt": ("projections", "the stored view 'json:1' does not decode"),
    "records-garbled": ("outcomes", "a command's outcome record does not decode"),
    "inbox-garbled": ("stream", "inbox entry "),
}


async def race(store: RedisEventStore, game_id: str, stop_after: int | None = None) -> None:
    config = RaceConfig(players=3, target=15)
    await play_through_store(
        store, get_game("race"), config, seed_of(71), game_id, stop_after=stop_after
    )


async def damaged_games(store: RedisEventStore) -> None:
    redis, prefix = store.redis, store.prefix
    for game_id in ("healthy", *EXPECTED):
        finished = game_id in ("event-lost", "stream-lost")
        await race(
            store, game_id, stop_after=None if finished else (0 if game_id == "frozen" else 4)
        )
    await delete_keys(redis, prefix, "meta-lost", "meta")
    await delete_keys(redis, prefix, "secret-lost", "secret")
    await delete_keys(redis, prefix, "seats-lost", "seats")
    codec = codec_for("race")
    move = codec.canonical(codec.parse_command({"type": "Move", "steps": 1}))
    await strand_command(redis, prefix, "frozen", move)
    await delete_event(redis, prefix, "event-lost", 12)
    await delete_keys(redis, prefix, "stream-lost", "events")
    await overwrite_view(redis, prefix, "view-corrupt", "json:1", b"<html>not json</html>")
    await garble_records(redis, prefix, "records-garbled")
    await strip_inbox_entry(redis, prefix, "inbox-garbled")


async def test_verify_names_every_damage_and_lists_every_damaged_game(
    real_store: RedisEventStore, core_settings: Settings
) -> None:
    await damaged_games(real_store)
    result = skald(core_settings, "verify", "--json")
    assert result.returncode == 1, result.stderr
    reports = {
        r.game_id: r for r in msgspec.json.decode(result.stdout, type=list[GameVerification])
    }
    assert sorted(reports) == sorted(["healthy", *EXPECTED])
    assert reports["healthy"].ok
    for game_id, (name, detail) in EXPECTED.items():
        failed = {c.name: c.detail for c in reports[game_id].checks if c.status == "failed"}
        assert name in failed, (game_id, failed)
        assert failed[name].startswith(detail), (game_id, failed)
    assert "unexpected" not in result.stdout
    summary = skald(core_settings, "verify")
    assert f"{len(EXPECTED) + 1} games verified: 1 ok, {len(EXPECTED)} failed" in summary.stdout


async def test_repair_then_quarantine_what_cannot_be_repaired(
    real_store: RedisEventStore, core_settings: Settings
) -> None:
    await damaged_games(real_store)
    # A corrupt view is rebuilt from events; the game verifies again
    repaired = skald(core_settings, "repair", "view-corrupt")
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    assert "view-corrupt: repaired: views and turns rebuilt at version" in repaired.stdout
    assert skald(core_settings, "verify", "view-corrupt").returncode == 0
    # A lost event cannot be: repair says so and fails
    lost = skald(core_settings, "repair", "event-lost")
    assert lost.returncode == 1
    assert "event-lost: NOT repaired: event 12 is missing from the stream" in lost.stdout
    # So it is quarantined: verify lists it apart, and it no longer fails the run alone
    quarantined = skald(core_settings, "quarantine", "event-lost", "--reason", "event 12 lost")
    assert quarantined.returncode == 0 and "event-lost: quarantined" in quarantined.stdout
    listed = skald(core_settings, "verify", "event-lost", "healthy")
    assert listed.returncode == 0, listed.stdout
    assert "quarantined: event-lost: quarantined by an operator: event 12 lost" in listed.stdout
    assert "2 games verified: 1 ok, 0 failed, 1 quarantined" in listed.stdout
    # Released, it is the damaged game it was
    released = skald(core_settings, "quarantine", "event-lost", "--release")
    assert "event-lost: released" in released.stdout
    assert skald(core_settings, "verify", "event-lost").returncode == 1
