"""Archiving on a real Redis: by hand (`skald archive`) and on schedule by the workers."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

from service import bootstrap
from service.cli import main
from service.facade.skald import Skald
from service.history.disclosure import OPERATOR
from service.shared.settings import ENV_PREFIX, Settings
from tests.fakes.race import race_config
from tests.integration.conftest import Workers

pytestmark = pytest.mark.anyio
SETTLE_S = 30.0


async def finished_game(skald: Skald) -> str:
    """A two-seat race played to its end (the workers drain it); its id."""
    created = await skald.commands.create_game("race", race_config(2, target=6))
    game_id = created.game_id
    n = 0
    while not (turn := await skald.reads.turn(game_id, None)).finished:
        seat = turn.to_act[0]
        await skald.commands.submit(game_id, seat, f"m{n}", {"type": "Move", "steps": 3}, "r")
        await skald.commands.wait_outcome(game_id, f"m{n}", SETTLE_S)
        n += 1
    return game_id


async def game_keys(skald: Skald, game_id: str) -> list[Any]:
    """The game's keys still in Redis."""
    return [key async for key in skald.redis.scan_iter(match=f"*{{{game_id}}}*")]


async def test_skald_archive_moves_finished_games_now(
    core_settings: Settings, workers: Workers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = msgspec.structs.replace(core_settings, data_dir=str(tmp_path))
    for name, value in msgspec.structs.asdict(settings).items():
        monkeypatch.setenv(ENV_PREFIX + name.upper(), str(value))
    workers.start(1, "--no-sweeper")
    skald = await bootstrap.connect(settings)
    try:
        game_id = await finished_game(skald)
        view = await skald.reads.view(game_id, None)

        assert await asyncio.to_thread(main, ["archive", "--now", "--json"]) == 0

        assert await game_keys(skald, game_id) == []
        assert await skald.reads.view(game_id, None) == view
        assert (await skald.history.fairness(game_id)).status == "fair"
    finally:
        await skald.close()


async def test_the_workers_archive_games_once_due(
    core_settings: Settings, workers: Workers, tmp_path: Path
) -> None:
    settings = msgspec.structs.replace(
        core_settings, data_dir=str(tmp_path), archive_after_s=0.5, archive_interval_s=0.2
    )
    workers.settings = settings
    workers.start(2)
    skald = await bootstrap.connect(settings)
    try:
        game_id = await finished_game(skald)
        replay = await skald.history.replay(game_id, OPERATOR)
        deadline = time.monotonic() + SETTLE_S
        while await game_keys(skald, game_id):
            assert time.monotonic() < deadline, "the workers never archived the game"
            await asyncio.sleep(0.1)
        assert await skald.history.replay(game_id, OPERATOR) == replay
        assert list((tmp_path / "archive").glob(f"*/{game_id}.skald"))
    finally:
        await skald.close()
