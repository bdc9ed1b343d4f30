"""Players and the life of a game through the facade: tokens, seats held by a player, a game
that waits for its players, starts (full, or with bots), is cancelled, and the limits."""

from __future__ import annotations

from collections.abc import AsyncIterator

import fakeredis
import pytest

from contracts.stream import (
    GameCancelled,
    GameOpened,
    SeatResigned,
    SeedRevealed,
    TableStarted,
)
from service.core.codec import codec_for
from service.shared.errors import (
    Conflict,
    Forbidden,
    NotFound,
    RateLimited,
    ServiceError,
    Unauthorized,
)
from tests.fakes.race import RaceGame, race_config
from tests.unit.facade.harness import Harness, make_harness

pytestmark = pytest.mark.anyio


@pytest.fixture
async def harness(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> AsyncIterator[Harness]:
    made = make_harness(fake_redis, max_games_created_per_hour=3, max_active_games_per_player=2)
    yield made
    await made.skald.close()


async def stream_types(harness: Harness, game_id: str) -> list[str]:
    codec = codec_for("race")
    stored = await harness.skald.store.read(game_id)
    return [type(codec.decode_event(e.data)).__name__ for e in stored]


async def test_a_player_token_opens_the_seat_the_player_holds(harness: Harness) -> None:
    players = harness.skald.players
    ada = await players.register("Ada")
    bo = await players.register("Bo")
    game_id = (await players.create_game(ada.player_id, "race", race_config(), None)).game_id
    joined = await players.join(ada.player_id, game_id, 1)
    assert joined.token == ""
    assert await harness.skald.authenticate(game_id, ada.token) == 1
    with pytest.raises(Forbidden) as refused:
        await harness.skald.authenticate(game_id, bo.token)
    assert refused.value.code == "player.no_seat"
    assert (await players.profile(ada.player_id)).name == "Ada"
    with pytest.raises(NotFound):
        await players.profile("nobody")


async def test_a_rotated_token_retires_the_old_one_and_keeps_the_seats(harness: Harness) -> None:
    players = harness.skald.players
    ada = await players.register("Ada")
    game_id = (await players.create_game(ada.player_id, "race", race_config(), None)).game_id
    await players.join(ada.player_id, game_id, 0)
    fresh = await players.rotate_token(ada.token)
    assert await harness.skald.authenticate(game_id, fresh.token) == 0
    with pytest.raises(Unauthorized):
        await harness.skald.authenticate(game_id, ada.token)
    await players.revoke_token(fresh.token)
    with pytest.raises(Unauthorized):
        await players.player_of(fresh.token)


async def test_an_open_game_refuses_commands_then_starts_when_the_last_seat_is_taken(
    harness: Harness,
) -> None:
    players, commands = harness.skald.players, harness.skald.commands
    ada, bo = await players.register("Ada"), await players.register("Bo")
    game_id = (await players.create_game(ada.player_id, "race", race_config(), None)).game_id
    await players.join(ada.player_id, game_id, 0)
    assert (await harness.skald.reads.turn(game_id, 0)).phase == "open"
    await commands.submit(game_id, 0, "early", {"type": "Move", "steps": 1}, "r")
    await harness.run_jobs()
    early = await commands.outcome(game_id, "early")
    assert (early.status, early.code) == ("refused", "game.not_started")
    await players.join(bo.player_id, game_id, 1)
    await harness.run_jobs()
    turn = await harness.skald.reads.turn(game_id, None)
    assert turn.phase == "started" and turn.to_act
    seat = turn.to_act[0]
    await commands.submit(game_id, seat, "go", {"type": "Move", "steps": 1}, "r")
    await harness.run_jobs()
    assert (await commands.outcome(game_id, "go")).status == "applied"
    types = await stream_types(harness, game_id)
    assert types[:2] == ["GameCreated", "GameOpened"] and "TableStarted" in types


async def test_guest_games_still_start_at_creation(harness: Harness) -> None:
    commands = harness.skald.commands
    game_id = (await commands.create_game("race", race_config())).game_id
    turn = await harness.skald.reads.turn(game_id, None)
    assert turn.phase == "started"
    types = await stream_types(harness, game_id)
    assert "GameOpened" not in types


async def test_the_creator_starts_with_bots_that_play_the_game_out(harness: Harness) -> None:
    players, commands = harness.skald.players, harness.skald.commands
    ada = await players.register("Ada")
    game_id = (await players.create_game(ada.player_id, "race", race_config(), None)).game_id
    await players.join(ada.player_id, game_id, 0)
    bo = await players.register("Bo")
    with pytest.raises(Forbidden):
        await players.start(bo.player_id, game_id)
    await players.start(ada.player_id, game_id)
    await harness.run_jobs()
    for step in range(200):
        turn = await harness.skald.reads.turn(game_id, 0)
        if turn.finished:
            break
        assert turn.to_act == [0]  # the bot's seat never waits
        await commands.submit(game_id, 0, f"m{step}", turn.legal_commands[0], "r")
        await harness.run_jobs()
    assert (await harness.skald.reads.turn(game_id, 0)).finished
    ids = {e.command_id for e in await harness.skald.store.read(game_id)}
    assert any(i is not None and i.startswith("bot:1:") for i in ids)
    started = [
        codec_for("race").decode_event(e.data) for e in await harness.skald.store.read(game_id)
    ]
    assert TableStarted([1]) in started and isinstance(started[-1], SeedRevealed)
    verified = await harness.skald.history.verify(game_id)
    assert verified.ok, verified


async def test_the_creator_cancels_an_open_game_and_nothing_applies_after(
    harness: Harness,
) -> None:
    players, commands = harness.skald.players, harness.skald.commands
    ada = await players.register("Ada")
    game_id = (await players.create_game(ada.player_id, "race", race_config(), None)).game_id
    await players.join(ada.player_id, game_id, 0)
    await players.cancel(ada.player_id, game_id)
    await harness.run_jobs()
    turn = await harness.skald.reads.turn(game_id, 0)
    assert turn.phase == "cancelled" and turn.finished and turn.to_act == []
    events = [
        codec_for("race").decode_event(e.data) for e in await harness.skald.store.read(game_id)
    ]
    assert GameOpened(ada.player_id) in events and GameCancelled(ada.player_id) in events
    assert isinstance(events[-1], SeedRevealed)
    with pytest.raises(ServiceError) as late:
        await commands.submit(game_id, 0, "late", {"type": "Move", "steps": 1}, "r")
    assert (late.value.status, late.value.code) == (409, "game.finished")


async def test_limits_on_games_created_and_games_held(harness: Harness) -> None:
    players = harness.skald.players
    ada = await players.register("Ada")
    made = [
        (await players.create_game(ada.player_id, "race", race_config(), None)).game_id
        for _ in range(3)
    ]
    with pytest.raises(RateLimited) as too_many:
        await players.create_game(ada.player_id, "race", race_config(), None)
    assert (too_many.value.code, too_many.value.status) == ("player.create_limit", 429)
    assert 0 < too_many.value.retry_after <= 3600  # when the hour's first leaves the window
    await players.join(ada.player_id, made[0], 0)
    await players.join(ada.player_id, made[1], 0)
    with pytest.raises(Conflict) as held:
        await players.join(ada.player_id, made[2], 0)
    assert held.value.code == "player.active_limit"
    with pytest.raises(Conflict) as other_seat:
        await players.join(ada.player_id, made[0], 1)  # one seat per player per game
    assert (other_seat.value.code, other_seat.value.details) == ("seat.already_held", {"seat": 0})
    again = await players.join(ada.player_id, made[0], 0)  # a retry: the same seat
    assert again.seat == 0


async def test_a_players_games_are_listed_filtered_and_paged(harness: Harness) -> None:
    players = harness.skald.players
    ada, bo = await players.register("Ada"), await players.register("Bo")
    first = (await players.create_game(ada.player_id, "race", race_config(), None)).game_id
    second = (await players.create_game(bo.player_id, "race", race_config(), None)).game_id
    await players.join(ada.player_id, first, 0)
    await players.join(ada.player_id, second, 0)
    await players.join(bo.player_id, second, 1)
    await harness.run_jobs()
    page = await players.games(ada.player_id, "all", None, 1)
    assert [g.game_id for g in page.games] == [second]
    rest = await players.games(ada.player_id, "all", page.cursor, 1)
    assert [g.game_id for g in rest.games] == [first]
    assert rest.games[0].phase == "open"
    mine = await players.games(ada.player_id, "my_turn", None, 10)
    turn = await harness.skald.reads.turn(second, None)
    assert [g.game_id for g in mine.games] == ([second] if 0 in turn.to_act else [])
    finished = await players.games(ada.player_id, "finished", None, 10)
    assert finished.games == []


async def test_a_resigned_seat_is_played_by_a_bot_to_the_end(harness: Harness) -> None:
    commands = harness.skald.commands
    game_id = (await commands.create_game("race", race_config())).game_id
    first = (await harness.skald.reads.turn(game_id, None)).to_act[0]
    await harness.skald.players.resign(game_id, 1 - first)
    await harness.run_jobs()
    again = await harness.skald.players.resign(game_id, 1 - first)
    assert again.status == "applied"  # the same resignation: once per seat
    for step in range(200):
        turn = await harness.skald.reads.turn(game_id, first)
        if turn.finished:
            break
        assert turn.to_act == [first]
        await commands.submit(game_id, first, f"m{step}", turn.legal_commands[0], "r")
        await harness.run_jobs()
    events = [
        codec_for("race").decode_event(e.data) for e in await harness.skald.store.read(game_id)
    ]
    assert SeatResigned(1 - first) in events and isinstance(events[-1], SeedRevealed)
    verified = await harness.skald.history.verify(game_id)
    assert verified.ok, verified


async def test_a_finished_game_offers_one_rematch_to_its_players(harness: Harness) -> None:
    players, commands = harness.skald.players, harness.skald.commands
    ada, bo = await players.register("Ada"), await players.register("Bo")
    game_id = (await players.create_game(ada.player_id, "race", race_config(), None)).game_id
    await players.join(ada.player_id, game_id, 0)
    with pytest.raises(Conflict):
        await players.rematch(ada.player_id, game_id)  # not finished
    await players.start(ada.player_id, game_id)
    await harness.run_jobs()
    for step in range(200):
        turn = await harness.skald.reads.turn(game_id, 0)
        if turn.finished:
            break
        await commands.submit(game_id, 0, f"m{step}", turn.legal_commands[0], "r")
        await harness.run_jobs()
    with pytest.raises(Forbidden):
        await players.rematch(bo.player_id, game_id)
    first = await players.rematch(ada.player_id, game_id)
    again = await players.rematch(ada.player_id, game_id)
    assert first == again and first.game_id != game_id
    listed = await players.games(ada.player_id, "all", None, 10)
    assert [(g.game_id, g.seat) for g in listed.games] == [(first.game_id, -1), (game_id, 0)]
    assert (await harness.skald.reads.turn(first.game_id, None)).phase == "open"
