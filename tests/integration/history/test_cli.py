"""`skald replay`, `audit`, `verify` and `rebuild-projections` as subprocesses on the real Redis."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from contracts.history import AuditReport, GameVerification, ReplayFrame
from domain.games import get_game
from service.adapters.store.redis_store import RedisEventStore
from service.core.ports.records import ReceivedCommand
from service.core.ports.views import view_field
from service.facade.history_side import HistoryService
from service.history.disclosure import OPERATOR
from service.history.replay import replay_frame
from service.shared.settings import Settings
from tests.fakes.race import RaceConfig
from tests.unit.history.playthrough import PlayedGame, play_through_store, seed_of
from tests.unit.history.tamper import edit_events

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

ROOT = Path(__file__).resolve().parents[3]


def skald(settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `skald ARGS` as a user would, pointed at this test's keys."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKALD_")}
    env.update(
        SKALD_REDIS_URL=settings.redis_url,
        SKALD_KEY_PREFIX=settings.key_prefix,
        SKALD_PLUGINS="tests.fakes.race",
        PYTHONPATH=str(ROOT),
    )
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


async def finished_race(store: RedisEventStore, game_id: str) -> PlayedGame:
    return await play_through_store(
        store, get_game("race"), RaceConfig(players=3, target=15), seed_of(61), game_id
    )


async def test_replay_draws_the_board_at_a_version_and_lists_the_moves(
    real_store: RedisEventStore, core_settings: Settings
) -> None:
    # Given a finished race
    played = await finished_race(real_store, "g1")
    at = played.last_version - 4
    # When it is replayed at a version from the command line
    result = skald(core_settings, "replay", "g1", "--at", str(at))
    # Then the board drawn is the game's own drawing of the table at that version
    assert result.returncode == 0, result.stderr
    assert played.game.render_text(played.states[at]) in result.stdout
    assert f"version {at} of {played.last_version}" in result.stdout
    # And every move up to then is listed, in order, one readable line each
    history = await HistoryService(real_store).history("g1")
    lines = [move.text for move in replay_frame(history, OPERATOR, at).moves]
    assert lines
    listed = [line.strip() for line in result.stdout.splitlines() if line.startswith("  ")]
    assert listed[-len(lines) :] == lines
    # And --json gives the same replay as data
    as_json = skald(core_settings, "replay", "g1", "--at", str(at), "--json")
    frame = msgspec.json.decode(as_json.stdout, type=ReplayFrame)
    assert frame.version == at and [move.text for move in frame.moves] == lines


async def test_audit_shows_a_move_and_a_refused_command(
    real_store: RedisEventStore, core_settings: Settings
) -> None:
    played = await finished_race(real_store, "g1")
    applied = next(sent for sent in played.sent if not sent.refused and sent.version_before > 8)
    refused = next(sent for sent in played.sent if sent.refused)
    version = applied.version_before + 1
    by_version = skald(core_settings, "audit", "g1", str(version))
    assert by_version.returncode == 0, by_version.stderr
    assert applied.command_id in by_version.stdout
    assert f"Hash chain: holds up to version {version}" in by_version.stdout
    assert "Fairness: fair" in by_version.stdout
    by_id = skald(core_settings, "audit", "g1", "--command", refused.command_id, "--json")
    report = msgspec.json.decode(by_id.stdout, type=AuditReport)
    assert report.status == "refused" and report.refusal is not None
    assert report.version_before == refused.version_before
    neither = skald(core_settings, "audit", "g1")
    assert neither.returncode == 1 and "either a version" in neither.stderr


async def test_a_command_id_two_seats_used_is_audited_by_naming_the_seat(
    real_store: RedisEventStore, core_settings: Settings
) -> None:
    # Given a game in play where both seats sent a command under the id "dup"
    await play_through_store(
        real_store, get_game("race"), RaceConfig(players=2), seed_of(62), "g1", stop_after=3
    )
    for seat in (0, 1):
        body = msgspec.json.encode({"type": "Move", "steps": seat + 1})
        await real_store.submit("g1", ReceivedCommand(seat, "dup", f"r{seat}", body), "j", 0, 1)
    # When it is audited by the id alone, the CLI asks for the seat
    alone = skald(core_settings, "audit", "g1", "--command", "dup")
    assert alone.returncode == 1 and "seats 0, 1" in alone.stderr
    # And with the seat, each seat's own command
    for seat in (0, 1):
        named = skald(
            core_settings, "audit", "g1", "--command", "dup", "--seat", str(seat), "--json"
        )
        report = msgspec.json.decode(named.stdout, type=AuditReport)
        assert report.command is not None and report.command.seat == seat
        assert report.command.command == {"type": "Move", "steps": seat + 1}


async def test_verify_passes_clean_games_and_names_an_edited_event(
    real_store: RedisEventStore, core_settings: Settings
) -> None:
    # Given two games, one finished and one in progress
    await finished_race(real_store, "done")
    await play_through_store(
        real_store, get_game("race"), RaceConfig(players=2), seed_of(62), "live", stop_after=3
    )
    # When every game is verified, then both pass and it exits 0
    clean = skald(core_settings, "verify")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "2 games verified: 2 ok, 0 failed" in clean.stdout
    # When an event of the finished game is edited in Redis
    await edit_events(
        real_store.redis,
        real_store.prefix,
        "done",
        {7: lambda event: {**event, "steps": 3 if event.get("steps") != 3 else 1}},
        rechain=False,
    )
    # Then verify exits 1 and names the game, the check and the version
    tampered = skald(core_settings, "verify", "--json")
    assert tampered.returncode == 1
    reports = msgspec.json.decode(tampered.stdout, type=list[GameVerification])
    done = next(report for report in reports if report.game_id == "done")
    chain = next(check for check in done.checks if check.name == "chain")
    assert (chain.status, chain.version) == ("failed", 7)
    readable = skald(core_settings, "verify", "done")
    assert readable.returncode == 1
    assert "done" in readable.stdout and "chain" in readable.stdout
    assert "version 7" in readable.stdout
    assert "1 game verified: 0 ok, 1 failed" in readable.stdout


async def test_verify_of_an_unknown_game_fails(core_settings: Settings) -> None:
    result = skald(core_settings, "verify", "no-such-game")
    assert result.returncode == 1
    assert "no game 'no-such-game'" in result.stdout


async def test_rebuild_projections_repairs_damaged_views(
    real_store: RedisEventStore, core_settings: Settings
) -> None:
    # Given a game whose public view was damaged in Redis
    await finished_race(real_store, "g1")
    views = real_store.keys("g1").views
    field = view_field("json", None)
    good = await real_store.redis.hget(views, field)
    await real_store.redis.hset(views, field, b"{}")
    assert skald(core_settings, "verify").returncode == 1
    # When every projection is rebuilt from events
    result = skald(core_settings, "rebuild-projections")
    # Then the view is restored and verification passes again
    assert result.returncode == 0, result.stderr
    assert "1 game: 1 rebuilt" in result.stdout
    assert await real_store.redis.hget(views, field) == good
    assert skald(core_settings, "verify").returncode == 0


def test_a_game_kept_by_the_demo_is_replayed_and_verified_from_its_data_directory(
    tmp_path: Path,
) -> None:
    # Given a demo game, played with no Redis configured: its embedded Redis is gone after
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKALD_")}
    env.update(
        SKALD_DATA_DIR=str(tmp_path / ".skald"),
        SKALD_PLUGINS="tests.fakes.race",
        PYTHONPATH=str(ROOT),
    )

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "service.cli", *args],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )

    demo = run("demo", "--game", "race", "--players", "2", "--workers", "1")
    assert demo.returncode == 0, demo.stderr
    game_id = demo.stdout.split("game id: ", 1)[1].split()[0]
    # When it is verified and replayed, each command starting the data directory's Redis
    verified = run("verify")
    replayed = run("replay", game_id)
    # Then the game passes every check, and its replay ends with the revealed seed
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "1 game verified: 1 ok, 0 failed" in verified.stdout
    assert replayed.returncode == 0, replayed.stderr
    assert f"game {game_id}" in replayed.stdout and "· over" in replayed.stdout
