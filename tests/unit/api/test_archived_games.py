"""Over HTTP, a game archived (cold storage) answers as it did from Redis."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from service import bootstrap
from tests.fakes.race import RaceGame

from .conftest import Api, bearer
from .test_history import new_race

pytestmark = pytest.mark.anyio


@pytest.fixture
def settings_overrides(tmp_path: Path) -> dict[str, Any]:
    """The archive is a directory of the test's own."""
    return {"data_dir": str(tmp_path)}


async def test_an_archived_game_is_served_as_before_and_refuses_commands(
    api: Api, race: RaceGame
) -> None:
    played = await new_race(api)
    assert await played.play()
    game_id, tokens = played.game_id, played.tokens
    paths = [
        f"/games/{game_id}/view",
        f"/games/{game_id}/turn",
        f"/games/{game_id}/events",
        f"/games/{game_id}/replay",
        f"/games/{game_id}/replay?at=3",
        f"/games/{game_id}/fairness",
        f"/games/{game_id}/audit/2",
    ]

    async def answers() -> list[tuple[int, str]]:
        served = []
        for path in paths:
            for headers in ({}, bearer(tokens[0]), bearer(tokens[1])):
                response = await api.client.get(path, headers=headers)
                served.append((response.status_code, response.text))
        return served

    before = await answers()
    assert {status for status, _ in before} == {200}
    settings = msgspec.structs.replace(api.settings, archive_after_s=0.0)
    report = await bootstrap.archiver(api.skald.redis, settings).run()
    assert report.archived == [game_id]
    assert not await api.skald.redis.exists(api.skald.store.keys(game_id).meta)

    assert await answers() == before
    late = await api.client.post(
        f"/games/{game_id}/commands",
        json={"command_id": "late", "command": {"type": "Move", "steps": 1}},
        headers=bearer(tokens[0]),
    )
    assert late.status_code == 409 and late.json()["code"] == "game.finished"


async def test_a_command_to_a_game_over_is_the_same_conflict_before_archiving(
    api: Api, race: RaceGame
) -> None:
    played = await new_race(api)
    assert await played.play()
    command = {"command_id": "over", "command": {"type": "Move", "steps": 1}}
    url, auth = f"/games/{played.game_id}/commands", bearer(played.tokens[0])
    inbox = api.skald.store.keys(played.game_id).inbox
    received = await api.skald.redis.xlen(inbox)
    in_redis = await api.client.post(url, json=command, headers=auth)
    # The same answer as a command to the archived game (the test above), at once: nothing
    # is queued to be refused later
    assert (in_redis.status_code, in_redis.json()["code"]) == (409, "game.finished")
    assert await api.skald.redis.xlen(inbox) == received
    assert await api.drain() == 0


async def test_a_command_queued_as_the_game_ended_is_refused_with_the_same_conflict(
    api: Api, race: RaceGame
) -> None:
    played = await new_race(api)
    assert await played.play()
    # A command queued just before the game ended: submitted while the head did not say so
    meta = api.skald.store.keys(played.game_id).meta
    await api.skald.redis.hdel(meta, "st")
    url, auth = f"/games/{played.game_id}/commands", bearer(played.tokens[0])
    command = {"command_id": "late", "command": {"type": "Move", "steps": 1}}
    queued = await api.client.post(url, json=command, headers=auth)
    assert queued.status_code == 202, queued.text
    await api.skald.redis.hset(meta, "st", "finished")
    await api.drain()
    decided = await api.client.post(url, params={"wait": "1"}, json=command, headers=auth)
    # Then the worker's refusal is the same conflict (it was a 422)
    assert (decided.status_code, decided.json()["code"]) == (409, "game.finished")
