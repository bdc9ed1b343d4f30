"""Replay, verification and the seed check on games stored in the real Redis."""

from __future__ import annotations

from typing import Any

import pytest

from contracts.base import GameConfig
from domain.games import game_names, get_game
from service import bootstrap
from service.adapters.store.redis_store import RedisEventStore
from service.facade.history_side import HistoryService
from service.shared.settings import Settings
from tests.fakes.race import RaceConfig
from tests.unit.history.playthrough import play_through_store, seed_of
from tests.unit.history.tamper import edit_events, stored_event, versions_of

pytestmark = [pytest.mark.anyio, pytest.mark.redis]


def cases() -> list[Any]:
    params = [pytest.param("race", RaceConfig(players=3, target=15), id="race")]
    for name in game_names():
        if name != "race":
            params.append(pytest.param(name, get_game(name).example_configs()[-1], id=name))
    return params


def service_on(store: RedisEventStore) -> HistoryService:
    return bootstrap.history(store.redis, Settings(key_prefix=store.prefix), store)


@pytest.mark.parametrize(("name", "config"), cases())
async def test_replay_at_every_version_equals_live_play_and_verifies_clean(
    real_store: RedisEventStore, name: str, config: GameConfig
) -> None:
    # Given a seeded game played to the end through the real Redis by the worker's drain
    played = await play_through_store(real_store, get_game(name), config, seed_of(51), "g1")
    service = service_on(real_store)
    # When it is replayed at every version
    history = await service.history("g1")
    # Then every state is the one live play had
    for version in range(1, played.last_version + 1):
        assert history.state_at(version) == played.live_state(version), version
    # And every check passes, the seed re-deriving every draw
    report = await service.verify("g1")
    assert report.ok, report
    assert {check.status for check in report.checks} == {"ok"}


async def test_an_event_edited_in_redis_is_named_by_verify(real_store: RedisEventStore) -> None:
    await play_through_store(
        real_store, get_game("race"), RaceConfig(players=2), seed_of(52), "g1", stop_after=6
    )
    await edit_events(
        real_store.redis,
        real_store.prefix,
        "g1",
        {8: lambda e: {**e, "roll": (e["roll"] + 1) % 3}},
        rechain=False,
    )
    report = await service_on(real_store).verify("g1")
    chain = next(check for check in report.checks if check.name == "chain")
    assert not report.ok
    assert chain.status == "failed" and chain.version == 8


async def test_a_wrong_seed_and_a_tampered_draw_are_detected(real_store: RedisEventStore) -> None:
    played = await play_through_store(
        real_store, get_game("race"), RaceConfig(players=3, target=15), seed_of(53), "a"
    )
    await play_through_store(
        real_store, get_game("race"), RaceConfig(players=3, target=15), seed_of(53), "b"
    )
    redis, prefix = real_store.redis, real_store.prefix
    # Game a: another seed revealed; game b: one die roll changed; both chains recomputed
    await edit_events(
        redis,
        prefix,
        "a",
        {played.last_version: lambda e: {**e, "seed_hex": seed_of(7).hex()}},
        rechain=True,
    )
    rolled = (await versions_of(redis, prefix, "b", "Moved"))[2]
    roll = (await stored_event(redis, prefix, "b", rolled))["roll"]
    await edit_events(
        redis, prefix, "b", {rolled: lambda e: {**e, "roll": (roll + 1) % 3}}, rechain=True
    )
    service = service_on(real_store)
    wrong_seed = await service.fairness("a")
    assert wrong_seed.status == "unfair" and wrong_seed.commitment_holds is False
    tampered = await service.fairness("b")
    assert tampered.status == "unfair" and tampered.commitment_holds is True
    assert tampered.mismatch is not None and tampered.mismatch.version == rolled
    assert tampered.mismatch.expected is not None
    assert tampered.mismatch.expected["roll"] == roll
    reports = await service.verify_all(await service.game_ids())
    assert [(r.game_id, r.ok) for r in reports] == [("a", False), ("b", False)]
