"""Creating games, taking seats, seat tokens and the lobby, through the facade."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import fakeredis
import pytest

from domain.chance import commitment
from service.shared.errors import Conflict, InvalidInput, NotFound, Unauthorized
from tests.fakes.race import RaceGame, race_config
from tests.unit.facade.harness import Harness, make_harness

pytestmark = pytest.mark.anyio


@pytest.fixture
async def harness(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> AsyncIterator[Harness]:
    harness = make_harness(fake_redis)
    yield harness
    await harness.skald.close()


async def test_a_new_game_opens_with_its_seed_committed_and_secret(harness: Harness) -> None:
    skald = harness.skald

    created = await skald.commands.create_game("race", race_config(players=3, target=9))

    assert (created.game, created.seats, created.rules_version) == ("race", 3, "1")
    seed = await skald.store.seed(created.game_id)
    assert seed is not None and len(seed) == 32
    assert created.seed_sha256 == commitment(seed)
    first = await skald.reads.events_after(created.game_id, 0, None, 1)
    assert first.events[0].event["type"] == "GameCreated"
    assert first.events[0].event["seed_sha256"] == created.seed_sha256
    assert first.events[0].event["config"] == {"players": 3, "target": 9}
    everything = (await skald.reads.events_after(created.game_id, 0, None, 100)).events
    assert seed.hex() not in str(everything)
    lobby = await skald.reads.open_games(None, 10)
    assert [(e.game_id, e.taken) for e in lobby] == [(created.game_id, [])]


async def test_games_get_distinct_ids(harness: Harness) -> None:
    ids = {
        (await harness.skald.commands.create_game("race", race_config())).game_id for _ in range(20)
    }

    assert len(ids) == 20


@pytest.mark.parametrize(
    ("game", "config", "code"),
    [
        ("chess", {"players": 2}, "game.unknown"),
        ("race", {"players": 2, "colour": "red"}, "game.bad_config"),
        ("race", {"players": "two"}, "game.bad_config"),
        ("race", {"players": 7}, "game.bad_config"),
        ("race", {}, "game.bad_config"),
    ],
)
async def test_a_bad_game_request_is_refused_and_stores_nothing(
    harness: Harness,
    fake_redis: fakeredis.aioredis.FakeRedis,
    game: str,
    config: dict[str, object],
    code: str,
) -> None:
    with pytest.raises(InvalidInput) as raised:
        await harness.skald.commands.create_game(game, config)

    assert raised.value.code == code
    assert raised.value.message
    assert await fake_redis.keys("*") == []


async def test_seats_are_taken_lowest_first_and_the_lobby_follows(harness: Harness) -> None:
    skald = harness.skald
    game_id = (await skald.commands.create_game("race", race_config(players=3))).game_id

    explicit = await skald.commands.join(game_id, 2, "Astrid")
    lowest = await skald.commands.join(game_id, None, "Bjorn")
    listed = await skald.reads.open_games("race", 10)
    last = await skald.commands.join(game_id, None, "Cnut")

    assert (explicit.seat, lowest.seat, last.seat) == (2, 0, 1)
    assert [e.taken for e in listed] == [[0, 2]]
    assert await skald.reads.open_games(None, 10) == []  # full games leave the lobby
    with pytest.raises(Conflict) as raised:
        await skald.commands.join(game_id, None, "Dag")
    assert raised.value.code == "seat.none_free"


async def test_a_taken_or_missing_seat_cannot_be_joined(harness: Harness) -> None:
    skald = harness.skald
    game_id = (await skald.commands.create_game("race", race_config())).game_id
    await skald.commands.join(game_id, 0, "Astrid")

    with pytest.raises(Conflict) as taken:
        await skald.commands.join(game_id, 0, "Bjorn")
    with pytest.raises(InvalidInput) as beyond:
        await skald.commands.join(game_id, 2, "Bjorn")
    with pytest.raises(InvalidInput) as negative:
        await skald.commands.join(game_id, -1, "Bjorn")
    with pytest.raises(NotFound):
        await skald.commands.join("no-such-game", None, "Bjorn")
    with pytest.raises(NotFound):
        await skald.commands.join("{bad}", None, "Bjorn")

    assert (taken.value.code, beyond.value.code, negative.value.code) == (
        "seat.taken",
        "seat.out_of_range",
        "seat.out_of_range",
    )
    assert [e.taken for e in await skald.reads.open_games(None, 10)] == [[0]]


async def test_a_token_opens_its_own_seat_in_its_own_game_only(harness: Harness) -> None:
    skald = harness.skald
    game_a = (await skald.commands.create_game("race", race_config())).game_id
    game_b = (await skald.commands.create_game("race", race_config())).game_id
    a0 = await skald.commands.join(game_a, 0, "")
    a1 = await skald.commands.join(game_a, 1, "")
    b0 = await skald.commands.join(game_b, 0, "")

    assert await skald.authenticate(game_a, a0.token) == 0
    assert await skald.authenticate(game_a, a1.token) == 1
    for game_id, token in [(game_b, a0.token), (game_a, b0.token), (game_a, "x" * 43)]:
        with pytest.raises(Unauthorized) as raised:
            await skald.authenticate(game_id, token)
        assert raised.value.code == "token.invalid"
    with pytest.raises(Unauthorized):
        await skald.authenticate(game_a, "")


async def test_tokens_are_long_random_and_never_stored(
    harness: Harness, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    skald = harness.skald
    game_id = (await skald.commands.create_game("race", race_config())).game_id

    token = (await skald.commands.join(game_id, 0, "Astrid")).token

    assert len(token) >= 43  # 32 random bytes in URL-safe base64: 256 bits
    for key in await fake_redis.keys("*"):
        kind = await fake_redis.type(key)
        stored: Any = b""
        if kind == b"hash":
            fields: Any = await fake_redis.hgetall(key)
            stored = b"".join(k + v for k, v in fields.items())
        elif kind == b"string":
            stored = await fake_redis.get(key) or b""
        assert token.encode() not in stored


async def test_a_bad_name_is_refused(harness: Harness) -> None:
    game_id = (await harness.skald.commands.create_game("race", race_config())).game_id

    with pytest.raises(InvalidInput) as raised:
        await harness.skald.commands.join(game_id, None, "x" * 65)

    assert raised.value.code == "seat.bad_name"


async def test_the_lobby_lists_newest_first_and_filters_by_game(harness: Harness) -> None:
    skald = harness.skald
    ids = [(await skald.commands.create_game("race", race_config())).game_id for _ in range(3)]

    newest_two = await skald.reads.open_games(None, 2)
    only_chess = await skald.reads.open_games("chess", 10)

    assert {e.game_id for e in newest_two} <= set(ids) and len(newest_two) == 2
    assert only_chess == []
    everything = await skald.reads.open_games("race", 10)
    assert [e.created_at for e in everything] == sorted(
        (e.created_at for e in everything), reverse=True
    )


def test_game_ids_never_start_with_a_dash() -> None:
    # A command line reads a leading "-" as an option: `skald replay -5KL…` failed.
    from service.facade.command_side import new_game_id

    ids = [new_game_id() for _ in range(2000)]
    assert not [game_id for game_id in ids if game_id.startswith("-")]
    assert len(set(ids)) == len(ids)
