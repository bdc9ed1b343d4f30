"""Ratings from games played through the service: the worker logs each finished game after
its round, the ratings equal OpenSkill run directly on the games' results, bots and guests
follow the documented rule, a finish seen twice counts once, and a rebuild (from the log, or
from the games, archived ones included) gives the same numbers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import fakeredis
import pytest

from service import bootstrap
from service.adapters.ratings.store import RatingsStore
from service.core.codec import codec_for
from service.core.ratings.ledger import RatingLedger
from service.core.ratings.openskill_fold import STANDING_DECODER
from service.core.ratings.results import RESULT_DECODER, RatedResult, RatedSeat
from tests.fakes.race import RaceGame, race_config
from tests.unit.core.ratings.direct import fold_directly
from tests.unit.core.ratings.play import dense_ranks, play_out, play_turns, players_game
from tests.unit.core.ratings.snapshot import projection
from tests.unit.facade.harness import Harness, make_harness

pytestmark = pytest.mark.anyio


@pytest.fixture
async def harness(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis, tmp_path: Path
) -> AsyncIterator[Harness]:
    made = make_harness(fake_redis, data_dir=str(tmp_path), max_active_games_per_player=0)
    yield made
    await made.skald.close()


def ratings_store(harness: Harness) -> RatingsStore:
    return RatingsStore(harness.skald.redis, harness.skald.settings.key_prefix)


async def logged(harness: Harness) -> list[RatedResult]:
    entries = await ratings_store(harness).entries(0, 10_000)
    return [RESULT_DECODER.decode(data) for _, data in entries]


async def register(harness: Harness, *names: str) -> list[str]:
    return [(await harness.skald.players.register(name)).player_id for name in names]


async def test_each_finished_game_rates_its_players_as_openskill_does(harness: Harness) -> None:
    ids = await register(harness, "Ada", "Bo", "Cy", "Di")
    expected: list[RatedResult] = []
    tables = [ids[:2], ids[1:4], ids, [ids[3], ids[0]], ids[::-1], ids[:3]]
    for n, table in enumerate(tables):
        game_id = await players_game(harness, table)
        outcome = await play_out(harness, game_id, f"g{n}-")
        ranks = dense_ranks(outcome, list(range(len(table))))
        seats = sorted(
            (RatedSeat(seat, player, ranks[seat]) for seat, player in enumerate(table)),
            key=lambda s: (s.rank, s.seat),
        )
        expected.append(RatedResult(game_id, "race", "standard", seats))
    assert await logged(harness) == expected  # logged by the worker, in the order they ended
    direct, _ = fold_directly(expected)
    side = harness.skald.ratings
    assert side is not None
    for player in ids:
        mu, sigma, games = direct["race/standard", player]
        (rating,) = (await harness.skald.public_profile(player)).ratings
        assert (rating.game, rating.variant) == ("race", "standard")
        assert (rating.mu, rating.sigma, rating.games) == (mu, sigma, games)
    board = await side.leaderboard("race", None, None, 100)
    assert [e.player_id for e in board.entries] == sorted(
        ids, key=lambda p: -(direct["race/standard", p][0] - 3 * direct["race/standard", p][1])
    )
    history = await side.history(ids[0], None, 100)
    assert [e.game_id for e in history.entries] == [
        r.game_id for r in reversed(expected) if ids[0] in {s.player_id for s in r.seats}
    ]


async def test_bots_guests_resigned_seats_and_unrated_games(harness: Harness) -> None:
    ada, bo, cy = await register(harness, "Ada", "Bo", "Cy")
    players, commands = harness.skald.players, harness.skald.commands
    # A creator-started game: seat 2 is a bot's for the whole game and is not rated.
    with_bot = (await players.create_game(ada, "race", race_config(players=3), None)).game_id
    await players.join(ada, with_bot, 0)
    await players.join(bo, with_bot, 1)
    await players.start(ada, with_bot)
    await harness.run_jobs()
    await play_out(harness, with_bot, "b")
    # A guest game a player joined: one player, a guest: nobody is rated.
    guest_game = (await commands.create_game("race", race_config(players=2))).game_id
    await players.join(cy, guest_game, 0)
    await commands.join(guest_game, 1, "guest")
    await harness.run_jobs()
    await play_out(harness, guest_game, "h")
    # A game created unrated.
    unrated = await players_game(harness, [ada, bo], rated=False)
    await play_out(harness, unrated, "u")
    # Each moves once; Cy resigns first, then Ada: both rank below Bo, Cy last, whatever
    # their bots did.
    resigned = await players_game(harness, [ada, bo, cy])
    await play_turns(harness, resigned, 3, "f")
    await players.resign(resigned, 2)
    await harness.run_jobs()
    await players.resign(resigned, 0)
    await harness.run_jobs()
    await play_out(harness, resigned, "r")
    results = await logged(harness)
    assert [r.game_id for r in results] == [with_bot, resigned]
    assert {s.player_id for s in results[0].seats} == {ada, bo}
    assert [(s.player_id, s.rank) for s in results[1].seats] == [(bo, 1), (ada, 2), (cy, 3)]
    store = ratings_store(harness)
    assert await store.unlogged([guest_game, unrated]) == []  # seen, and rating nobody
    assert (await harness.skald.public_profile(cy)).ratings[0].games == 1


async def test_a_finish_seen_twice_counts_once(harness: Harness) -> None:
    ids = await register(harness, "Ada", "Bo", "Cy")
    game_id = await players_game(harness, ids)
    await play_out(harness, game_id, "m")
    store = ratings_store(harness)
    before = await projection(store)
    ledger = bootstrap.rating_ledger(harness.skald.redis, harness.skald.settings)
    assert not await ledger.game_finished(game_id)
    report = await bootstrap.catch_up_ratings(harness.skald.redis, harness.skald.settings)
    assert (report.logged, report.folded) == (0, 0)
    assert await store.log_length() == 1
    assert await projection(store) == before


async def test_the_sweepers_catch_up_logs_a_game_the_worker_missed(harness: Harness) -> None:
    ids = await register(harness, "Ada", "Bo")
    harness.drainer.on_finished = None  # the worker died between the commit and the log
    missed = await players_game(harness, ids)
    await play_out(harness, missed, "x")
    store = ratings_store(harness)
    assert await store.log_length() == 0
    report = await bootstrap.catch_up_ratings(harness.skald.redis, harness.skald.settings)
    assert (report.logged, report.rated, report.folded) == (1, 1, 1)
    assert [r.game_id for r in await logged(harness)] == [missed]
    assert (await harness.skald.public_profile(ids[0])).ratings[0].games == 1


async def test_one_worker_catches_up_per_interval(harness: Harness) -> None:
    ids = await register(harness, "Ada", "Bo")
    harness.drainer.on_finished = None
    settings, redis = harness.skald.settings, harness.skald.redis
    # The first worker claims the interval (nothing to log yet)
    assert (await bootstrap.catch_up_ratings(redis, settings, owner="w1")).logged == 0
    missed = await players_game(harness, ids)
    await play_out(harness, missed, "y")
    # Another worker within the same interval leaves it to the next one
    assert (await bootstrap.catch_up_ratings(redis, settings, owner="w2")).logged == 0
    assert await ratings_store(harness).unlogged([missed]) == [missed]
    await redis.delete(ratings_store(harness).base + "catch-up")  # the interval passed
    assert (await bootstrap.catch_up_ratings(redis, settings, owner="w2")).logged == 1


async def test_rebuilt_ratings_equal_the_live_ones(harness: Harness) -> None:
    ids = await register(harness, "Ada", "Bo", "Cy", "Di")
    games = []
    for n, table in enumerate([ids[:2], ids[1:], ids, ids[2:], ids[::-1]]):
        games.append(await players_game(harness, table))
        await play_out(harness, games[-1], f"k{n}-")
    settings, redis = harness.skald.settings, harness.skald.redis
    archived = await bootstrap.archiver(redis, settings).run([games[0], games[2]], force=True)
    assert archived.archived == [games[0], games[2]]
    store = ratings_store(harness)
    live = await projection(store)
    log = await store.entries(0, 100)
    events = bootstrap.archived_reads(bootstrap.store(redis, settings), settings)
    # The projection dropped, folded again from the log.
    await store.reset(with_log=False)
    assert await projection(store) == {}
    report = await bootstrap.rebuild_ratings(events, settings)
    assert (report.logged, report.folded) == (0, 5)
    assert await projection(store) == live
    # The log dropped too, logged again from the games (two of them archived).
    report = await bootstrap.rebuild_ratings(events, settings, from_games=True)
    assert (report.logged, report.rated, report.folded) == (5, 5, 5)
    assert await store.entries(0, 100) == log
    assert await projection(store) == live
    ledger = RatingLedger(events, store)
    assert await ledger.fold() == 0
    standing = STANDING_DECODER.decode((await store.standings("race/standard", [ids[0]]))[ids[0]])
    assert standing.games == 3


async def test_an_unrated_game_says_so_in_its_first_event_and_its_rematch_keeps_it(
    harness: Harness,
) -> None:
    ada, bo = await register(harness, "Ada", "Bo")
    unrated = await players_game(harness, [ada, bo], rated=False)
    rated = await players_game(harness, [ada, bo])
    await play_out(harness, unrated, "v")
    rematch = await harness.skald.players.rematch(bo, unrated)
    codec = codec_for("race")
    first = {
        game_id: codec.decode_event((await harness.skald.store.read(game_id))[0].data)
        for game_id in (unrated, rated, rematch.game_id)
    }
    assert [first[g].rated for g in (unrated, rated, rematch.game_id)] == [False, True, False]
    # A rated game's first event is written as before the setting existed: no `rated` field
    assert b"rated" not in (await harness.skald.store.read(rated))[0].data
