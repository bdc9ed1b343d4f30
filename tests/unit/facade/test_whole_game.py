"""A whole seeded game through the facade equals the same game played in-process."""

from __future__ import annotations

import fakeredis
import msgspec
import pytest

from domain.engine import fold
from service.core.codec import codec_for
from service.core.pipeline.chain import first_broken_link
from tests.fakes.players import builtins, play_in_process, play_through_service, stream_events
from tests.fakes.race import RaceConfig, RaceGame
from tests.unit.facade.harness import make_harness

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_a_game_played_through_the_service_matches_in_process_play(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis, players: int
) -> None:
    harness = make_harness(fake_redis, rate_per_seat=0)
    skald = harness.skald
    config = RaceConfig(players=players, target=25)
    bot_seeds = [11 * (seat + 1) for seat in range(players)]
    game_id = (await skald.commands.create_game("race", msgspec.to_builtins(config))).game_id

    async def settle(command_id: str) -> object:
        await harness.run_jobs()
        return await skald.commands.outcome(game_id, command_id)

    sent = await play_through_service(skald, game_id, bot_seeds, settle)

    stored = await skald.store.read(game_id)
    codec = codec_for("race")
    served = [codec.decode_event(e.data) for e in stored]
    seed = bytes.fromhex(msgspec.to_builtins(served[-1])["seed_hex"])
    expected_events, expected_state = play_in_process(race, config, seed, bot_seeds)
    assert builtins(stream_events(served)) == builtins(expected_events)
    assert fold(race, stream_events(served)) == expected_state
    assert first_broken_link(game_id, stored) is None
    assert sent == sum(1 for e in expected_events if type(e).__name__ in {"Moved", "Boosted"})
    await skald.close()
