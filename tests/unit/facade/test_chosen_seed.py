"""A client may fix a game's seed only on a server that allows it (demos and tests)."""

from __future__ import annotations

import fakeredis
import msgspec
import pytest

from contracts.api import ViewEnvelope
from domain.chance import commitment
from service.shared.errors import Forbidden, InvalidInput
from tests.fakes.race import RaceGame, race_config
from tests.unit.facade.harness import make_harness

pytestmark = pytest.mark.anyio

SEED = bytes(range(32))


def decode_view(data: bytes) -> ViewEnvelope:
    return msgspec.json.decode(data, type=ViewEnvelope)


async def game_keys(redis: fakeredis.aioredis.FakeRedis) -> list[bytes]:
    return [key async for key in redis.scan_iter("t:game:*")]


async def test_a_chosen_seed_is_refused_by_default_and_nothing_is_created(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    # Given a server with default settings
    harness = make_harness(fake_redis)
    # When a client asks for a game with a seed of its own
    with pytest.raises(Forbidden) as refused:
        await harness.skald.commands.create_game("race", race_config(), SEED.hex())
    # Then it is refused with a code that says why, and no game exists
    assert refused.value.code == "game.chosen_seed_refused"
    assert await game_keys(fake_redis) == []
    await harness.skald.close()


async def test_an_allowed_chosen_seed_is_the_one_committed_to(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    # Given a server that accepts chosen seeds
    harness = make_harness(fake_redis, allow_chosen_seeds=True)
    # When two games are created with the same seed
    first = await harness.skald.commands.create_game("race", race_config(), SEED.hex())
    second = await harness.skald.commands.create_game("race", race_config(), SEED.hex())
    # Then both commit to that seed and open identically (same public view)
    assert first.seed_sha256 == second.seed_sha256 == commitment(SEED)
    _, first_view = await harness.skald.reads.view(first.game_id, None)
    _, second_view = await harness.skald.reads.view(second.game_id, None)
    assert decode_view(first_view).view == decode_view(second_view).view
    await harness.skald.close()


@pytest.mark.parametrize("seed_hex", ["zz" * 32, "ab" * 31, "ab" * 33, ""])
async def test_a_malformed_seed_is_refused(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis, seed_hex: str
) -> None:
    harness = make_harness(fake_redis, allow_chosen_seeds=True)
    with pytest.raises(InvalidInput) as refused:
        await harness.skald.commands.create_game("race", race_config(), seed_hex)
    assert refused.value.code == "game.bad_seed"
    assert await game_keys(fake_redis) == []
    await harness.skald.close()
