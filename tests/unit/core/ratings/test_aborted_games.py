"""A rated game in which a player's seat leaves before that player's first move is aborted
for ratings: the farming loop (a puppet resigns at once, then the farmer, bots finish) moves
no rating, a game whose players all moved still rates, and a rebuild from the games aborts
the same games."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import fakeredis
import pytest

from contracts.outcome import Outcome, PlayerScore
from contracts.stream import Clock
from service import bootstrap
from service.adapters.ratings.store import RatingsStore
from service.core.pipeline.deadlines import fire_due
from service.core.ratings.finished import FirstMoves
from service.core.ratings.results import RESULT_DECODER, rated_result
from tests.fakes.race import RaceGame, race_config
from tests.unit.core.ratings.play import play_out, play_turns, players_game
from tests.unit.core.ratings.snapshot import projection
from tests.unit.facade.harness import Harness, make_harness

pytestmark = pytest.mark.anyio
FIXED_SEED = "5e" * 32


@pytest.fixture
async def harness(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis, tmp_path: Path
) -> AsyncIterator[Harness]:
    made = make_harness(
        fake_redis, data_dir=str(tmp_path), max_active_games_per_player=0, allow_chosen_seeds=True
    )
    yield made
    await made.skald.close()


def ratings_store(harness: Harness) -> RatingsStore:
    return RatingsStore(harness.skald.redis, harness.skald.settings.key_prefix)


async def register(harness: Harness, *names: str) -> list[str]:
    return [(await harness.skald.players.register(name)).player_id for name in names]


async def farm(harness: Harness, farmer: str, puppet: str, tag: str) -> str:
    """One round of the farming loop: the puppet resigns, then the farmer; bots finish."""
    game_id = await players_game(harness, [farmer, puppet])
    await harness.skald.players.resign(game_id, 1)
    await harness.run_jobs()
    await harness.skald.players.resign(game_id, 0)
    await harness.run_jobs()
    await play_out(harness, game_id, tag)
    return game_id


async def test_the_farming_loop_moves_no_rating(harness: Harness) -> None:
    (farmer,) = await register(harness, "Farmer")
    games = []
    for n in range(4):
        (puppet,) = await register(harness, f"Puppet{n}")
        games.append(await farm(harness, farmer, puppet, f"f{n}-"))
    for game_id in games:
        assert (await harness.skald.reads.turn(game_id, None)).finished
    store = ratings_store(harness)
    assert await store.log_length() == 0
    assert await store.unlogged(games) == []  # each seen, and rating nobody
    assert (await harness.skald.public_profile(farmer)).ratings == []


async def test_a_puppet_resigning_unmoved_rates_nobody_though_the_farmer_plays_on(
    harness: Harness,
) -> None:
    farmer, puppet = await register(harness, "Farmer", "Puppet")
    game_id = await players_game(harness, [farmer, puppet])
    await harness.skald.players.resign(game_id, 1)
    await harness.run_jobs()
    await play_out(harness, game_id, "p")  # the farmer's own moves, to the end
    assert await ratings_store(harness).log_length() == 0
    assert (await harness.skald.public_profile(farmer)).ratings == []


async def test_a_game_whose_players_moved_before_one_resigned_still_rates(
    harness: Harness,
) -> None:
    ada, bo = await register(harness, "Ada", "Bo")
    game_id = await players_game(harness, [ada, bo])
    await play_turns(harness, game_id, 2, "m")  # one move each
    await harness.skald.players.resign(game_id, 1)
    await harness.run_jobs()
    await play_out(harness, game_id, "p")
    entries = await ratings_store(harness).entries(0, 10)
    (result,) = [RESULT_DECODER.decode(data) for _, data in entries]
    assert [(s.player_id, s.rank) for s in result.seats] == [(ada, 1), (bo, 2)]
    assert (await harness.skald.public_profile(bo)).ratings[0].games == 1


async def test_a_rebuild_from_the_games_aborts_the_same_games(harness: Harness) -> None:
    farmer, puppet, ada = await register(harness, "Farmer", "Puppet", "Ada")
    played = await players_game(harness, [farmer, ada])
    await play_out(harness, played, "a")
    farmed = await farm(harness, farmer, puppet, "b")
    resigned = await players_game(harness, [ada, farmer])
    await play_turns(harness, resigned, 2, "c")
    await harness.skald.players.resign(resigned, 0)
    await harness.run_jobs()
    await play_out(harness, resigned, "d")
    settings, redis = harness.skald.settings, harness.skald.redis
    store = ratings_store(harness)
    live, log = await projection(store), await store.entries(0, 100)
    assert [RESULT_DECODER.decode(data).game_id for _, data in log] == [played, resigned]
    events = bootstrap.archived_reads(bootstrap.store(redis, settings), settings)
    report = await bootstrap.rebuild_ratings(events, settings, from_games=True)
    assert (report.logged, report.rated, report.folded) == (3, 2, 2)
    assert await store.unlogged([farmed]) == []
    assert await store.entries(0, 100) == log
    assert await projection(store) == live


async def forfeit_game(harness: Harness, farmer: str, puppet: str, puppet_moves: int) -> None:
    """A game on a clock whose timed-out seat forfeits: the puppet makes `puppet_moves` moves,
    then never moves again (its deadline fires: it forfeits); the farmer plays to the end."""
    players, reads = harness.skald.players, harness.skald.reads
    clock = Clock(per_move_s=86_400.0, on_timeout="forfeit")
    config = race_config(target=30)
    game = await players.create_game(farmer, "race", config, FIXED_SEED, clock=clock)
    await players.join(farmer, game.game_id, 0)
    await players.join(puppet, game.game_id, 1)
    await harness.run_jobs()
    deadlines = harness.skald.commands.deadlines
    assert deadlines is not None
    for step in range(400):
        turn = await reads.turn(game.game_id, None)
        if turn.finished:
            return
        seat = turn.to_act[0]
        if seat == 0 or puppet_moves > 0:
            puppet_moves -= seat
            legal = (await reads.turn(game.game_id, seat)).legal_commands
            await harness.skald.commands.submit(game.game_id, seat, f"s{step}", legal[0], "r")
        else:
            await fire_due(deadlines, harness.skald.store, harness.scheduler, turn.deadlines[1])
        await harness.run_jobs()
    raise AssertionError("the game never finished")


async def test_a_seat_forfeited_before_its_first_move_rates_nobody(harness: Harness) -> None:
    farmer, puppet = await register(harness, "Farmer", "Puppet")
    await forfeit_game(harness, farmer, puppet, puppet_moves=0)
    assert await ratings_store(harness).log_length() == 0


async def test_a_seat_forfeited_after_a_move_ranks_below_the_player_who_played_on(
    harness: Harness,
) -> None:
    ada, bo = await register(harness, "Ada", "Bo")
    # Bo moves once, then forfeits; the greedy bot in Bo's seat outruns Ada's first-choice
    # moves, but leaving is losing.
    await forfeit_game(harness, ada, bo, puppet_moves=1)
    (_, data), *_ = await ratings_store(harness).entries(0, 10)
    result = RESULT_DECODER.decode(data)
    assert [(s.player_id, s.rank) for s in result.seats] == [(ada, 1), (bo, 2)]


def two_seats() -> Outcome:
    return Outcome([PlayerScore(0, 5, {}, 1), PlayerScore(1, 3, {}, 2)], [0])


def test_a_players_seat_leaving_before_its_first_move_aborts_the_result() -> None:
    players = {0: "a", 1: "b"}
    assert rated_result("g", "race", "standard", two_seats(), players, [1], [1]) is None
    # A guest's or a bot's seat (not a player's) leaving unmoved aborts nothing.
    kept = rated_result("g", "race", "standard", two_seats(), players, [], [2])
    assert kept is not None and len(kept.seats) == 2


def test_only_a_seats_own_commands_count_as_its_moves() -> None:
    moves = FirstMoves()
    moves.game_event("0:c1")  # seat 0's player
    moves.game_event("bot:1:3:greedy")  # a bot's move for seat 1
    moves.game_event("-1:sys:timeout:1:2")  # the service's own command
    moves.left(0)
    moves.left(1)
    assert moves.aborting_seats() == [1]
    # A game stored before command ids were per seat tags moves with bare ids: undecidable,
    # so the rule does not apply and its rating stays as it was.
    legacy = FirstMoves()
    legacy.game_event("c1")
    legacy.left(1)
    assert legacy.aborting_seats() == []
