"""A game a player created that waits for its players too long is cancelled by a real worker's
sweeper, while a game that started is left alone."""

from __future__ import annotations

import msgspec
import pytest

from contracts.stream import GameCancelled
from service.facade.skald import Skald
from service.shared.settings import Settings
from tests.fakes.race import race_config
from tests.integration.conftest import Workers
from tests.integration.test_turn_timers import service_events, wait_turn

pytestmark = [pytest.mark.anyio, pytest.mark.redis]


@pytest.fixture
def core_settings(core_settings: Settings) -> Settings:
    """Open games expire after a second."""
    return msgspec.structs.replace(core_settings, open_game_ttl_s=1.0)


async def test_a_worker_cancels_a_game_left_waiting(skald: Skald, workers: Workers) -> None:
    players = skald.players
    ada = await players.register("Ada")
    waiting = (await players.create_game(ada.player_id, "race", race_config(3), None)).game_id
    await players.join(ada.player_id, waiting, 0)
    started = (await players.create_game(ada.player_id, "race", race_config(), None)).game_id
    await players.join(ada.player_id, started, 0)
    await players.start(ada.player_id, started)
    workers.start(1)
    turn = await wait_turn(skald, waiting, lambda t: t.phase == "cancelled")
    assert turn.finished
    assert GameCancelled("", "expired") in await service_events(skald, waiting)
    assert (await skald.reads.turn(started, None)).phase == "started"
