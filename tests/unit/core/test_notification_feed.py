"""Players' notifications derived from their games' events: what each event means to whom,
stored per player with bounded retention, paged with `after=`, idempotent, and rebuilt from
the events to the same feed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import fakeredis
import msgspec
import pytest

from contracts.notifications import Notification
from contracts.stream import Clock
from service import bootstrap
from service.adapters.store.side import PendingIndex
from service.core.notifying.projector import NotificationProjector
from service.core.pipeline.sweep import sweep
from service.core.ports.notifications import Reminder
from tests.fakes.race import RaceGame, race_config
from tests.unit.facade.harness import Harness, make_harness

pytestmark = pytest.mark.anyio


@pytest.fixture
async def harness(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> AsyncIterator[Harness]:
    made = make_harness(fake_redis, rate_per_seat=0, notification_retention=50)
    yield made
    await made.skald.close()


def projector_of(harness: Harness) -> NotificationProjector:
    return bootstrap.notification_projector(
        harness.skald.settings, harness.skald.redis, harness.skald.store
    )


async def feed(harness: Harness, player_id: str) -> list[Notification]:
    side = harness.skald.notifications
    assert side is not None
    found: list[Notification] = []
    after = "0"
    while True:
        page = await side.page(player_id, after, 3)
        if not page.notifications:
            return found
        found += [entry.notification for entry in page.notifications]
        after = page.next


async def settle(harness: Harness, projector: NotificationProjector) -> None:
    """Run the runners and the projector until neither has anything left."""
    while await harness.run_jobs() or (await projector.step()).games:
        pass


async def two_player_game(harness: Harness, clock: Clock | None = None) -> tuple[str, str, str]:
    players = harness.skald.players
    ada, bo = await players.register("Ada"), await players.register("Bo")
    game_id = (await players.create_game(ada.player_id, "race", race_config(), None, clock)).game_id
    await players.join(ada.player_id, game_id, 0)
    await players.join(bo.player_id, game_id, 1)
    return game_id, ada.player_id, bo.player_id


async def play_out(harness: Harness, game_id: str, projector: NotificationProjector) -> None:
    for step in range(200):
        await settle(harness, projector)
        turn = await harness.skald.reads.turn(game_id, None)
        if turn.finished:
            return
        seat = turn.to_act[0]
        legal = (await harness.skald.reads.turn(game_id, seat)).legal_commands
        await harness.skald.commands.submit(game_id, seat, f"m{step}", legal[0], "r")
    raise AssertionError("the game did not finish")


async def test_a_whole_game_tells_each_player_its_start_their_turns_and_their_rank(
    harness: Harness,
) -> None:
    projector = projector_of(harness)
    game_id, ada, bo = await two_player_game(harness)
    await play_out(harness, game_id, projector)
    outcome = (await harness.skald.reads.turn(game_id, None)).finished
    assert outcome
    for seat, player in ((0, ada), (1, bo)):
        got = await feed(harness, player)
        kinds = [n.kind for n in got]
        assert kinds[0] == "game_started" and kinds[-1] == "game_finished"
        assert all(n.seat == seat and n.game_id == game_id for n in got)
        assert len({n.id for n in got}) == len(got)
        versions = [n.version for n in got]
        assert versions == sorted(versions)
        assert "your_turn" in kinds
    # The race alternates seats: each your_turn is at a version where the seat starts to act.
    events = await harness.skald.store.read(game_id)
    assert events[-1].version >= max(n.version for n in await feed(harness, ada))
    finished = [n for p in (ada, bo) for n in await feed(harness, p) if n.kind == "game_finished"]
    assert sorted(n.rank or 0 for n in finished) in ([1, 2], [1, 1])


async def test_projecting_again_adds_nothing_and_a_rebuild_gives_the_same_feed(
    harness: Harness,
) -> None:
    projector = projector_of(harness)
    game_id, ada, bo = await two_player_game(harness)
    await play_out(harness, game_id, projector)
    before = {p: await feed(harness, p) for p in (ada, bo)}
    await projector.cursors.set(game_id, 0)
    projector.cache.take(game_id)
    assert await projector.project(game_id) == 0  # every id is in the feed already
    for player in (ada, bo):  # as if the feeds were lost
        await projector.feed.clear(player)
    written = await projector.rebuild([game_id])
    assert written == sum(len(v) for v in before.values())
    assert {p: await feed(harness, p) for p in (ada, bo)} == before


async def test_the_cli_rebuild_derives_archived_games_too(harness: Harness, tmp_path: Path) -> None:
    projector = projector_of(harness)
    game_id, ada, bo = await two_player_game(harness)
    await play_out(harness, game_id, projector)
    before = {p: await feed(harness, p) for p in (ada, bo)}
    redis = harness.skald.redis
    settings = msgspec.structs.replace(harness.skald.settings, data_dir=str(tmp_path))
    archived = await bootstrap.archiver(redis, settings).run([game_id], force=True)
    assert archived.archived == [game_id]
    for player in (ada, bo):
        await projector.feed.clear(player)
    done = await bootstrap.rebuild_notifications(redis, settings, [game_id])
    assert (done.games, done.players) == (1, 2)
    assert {p: await feed(harness, p) for p in (ada, bo)} == before


async def test_cancel_resign_and_rematch_reach_the_players(harness: Harness) -> None:
    projector = projector_of(harness)
    players = harness.skald.players
    ada, bo = await players.register("Ada"), await players.register("Bo")
    cancelled = (await players.create_game(ada.player_id, "race", race_config(), None)).game_id
    await players.join(ada.player_id, cancelled, 0)
    await players.cancel(ada.player_id, cancelled)
    await settle(harness, projector)
    assert [n.kind for n in await feed(harness, ada.player_id)] == ["game_cancelled"]

    game_id = (await players.create_game(ada.player_id, "race", race_config(), None)).game_id
    await players.join(ada.player_id, game_id, 0)
    await players.join(bo.player_id, game_id, 1)
    await settle(harness, projector)
    await players.resign(game_id, 1)
    await play_out(harness, game_id, projector)
    bo_feed = await feed(harness, bo.player_id)
    assert "seat_taken_by_bot" in [n.kind for n in bo_feed]
    resigned_at = next(n.version for n in bo_feed if n.kind == "seat_taken_by_bot")
    assert not [n for n in bo_feed if n.kind == "your_turn" and n.version > resigned_at]

    rematch = await players.rematch(ada.player_id, game_id)
    await settle(harness, projector)
    for player in (ada.player_id, bo.player_id):
        offers = [n for n in await feed(harness, player) if n.kind == "rematch_offered"]
        assert [o.rematch_id for o in offers] == [rematch.game_id]


async def test_deadline_reminders_come_due_and_only_while_the_deadline_stands(
    harness: Harness,
) -> None:
    projector = projector_of(harness)
    game_id, ada, bo = await two_player_game(harness, Clock(per_move_s=2 * 3600.0))
    await settle(harness, projector)
    turn = await harness.skald.reads.turn(game_id, None)
    [seat] = turn.to_act
    deadline = turn.deadlines[seat]
    waiting = ada if seat == 0 else bo
    assert await projector.send_reminders(10, now_ms=deadline - 3_600_000 - 1) == 0
    assert await projector.send_reminders(10, now_ms=deadline - 3_600_000) == 1
    assert await projector.send_reminders(10, now_ms=deadline - 3_600_000) == 0
    reminded = [n for n in await feed(harness, waiting) if n.kind.startswith("deadline")]
    assert [(n.kind, n.deadline_ms, n.seat) for n in reminded] == [("deadline_1h", deadline, seat)]
    # The seat moves: its deadline no longer stands, and its 5-minute reminder is not sent.
    legal = (await harness.skald.reads.turn(game_id, seat)).legal_commands
    await harness.skald.commands.submit(game_id, seat, "move", legal[0], "r")
    await settle(harness, projector)
    await projector.send_reminders(10, now_ms=deadline - 300_000)
    reminded = [n for n in await feed(harness, waiting) if n.kind.startswith("deadline")]
    assert [n.kind for n in reminded] == ["deadline_1h"]


def shown(notifications: list[Notification]) -> list[tuple[str, str, int]]:
    return sorted((n.id, n.kind, n.version) for n in notifications)


async def test_a_rebuild_derives_the_deadline_reminders_that_were_sent(
    harness: Harness,
) -> None:
    projector = projector_of(harness)
    game_id, ada, bo = await two_player_game(harness, Clock(per_move_s=2 * 3600.0))
    await settle(harness, projector)
    first = await harness.skald.reads.turn(game_id, None)
    [seat] = first.to_act
    # The seat moves at once, long before its reminders fall due: they are never sent.
    legal = (await harness.skald.reads.turn(game_id, seat)).legal_commands
    await harness.skald.commands.submit(game_id, seat, "move", legal[0], "r")
    await settle(harness, projector)
    second = await harness.skald.reads.turn(game_id, None)
    [other] = second.to_act
    assert other != seat
    # Later, past the first deadline's five-minute mark: the second deadline's hour has come.
    later = first.deadlines[seat] - 300_000
    assert await projector.send_reminders(10, now_ms=later) == 1
    before = {p: shown(await feed(harness, p)) for p in (ada, bo)}
    reminded = [n for p in (ada, bo) for n in await feed(harness, p) if n.kind != "your_turn"]
    assert [(n.kind, n.seat) for n in reminded if n.kind.startswith("deadline")] == [
        ("deadline_1h", other)
    ]
    for player in (ada, bo):
        await projector.feed.clear(player)
    await projector.rebuild([game_id], now_ms=later)
    assert {p: shown(await feed(harness, p)) for p in (ada, bo)} == before
    # A reminder still scheduled is the live projector's to send: a rebuild leaves it be.
    five_minutes = second.deadlines[other] - 300_000
    await projector.rebuild([game_id], now_ms=five_minutes)
    assert {p: shown(await feed(harness, p)) for p in (ada, bo)} == before
    assert await projector.send_reminders(10, now_ms=five_minutes) == 1


async def test_the_feed_keeps_the_newest_notifications_and_pages_after_a_cursor(
    harness: Harness,
) -> None:
    side = harness.skald.notifications
    assert side is not None
    feed_store = side.feed
    made = [
        Notification(id=f"g:{v}:your_turn:0", game_id="g", kind="your_turn", version=v, seat=0)
        for v in range(1, 81)
    ]
    assert await feed_store.append("p1", made) == 80
    assert await feed_store.append("p1", made[-5:]) == 0
    kept = await feed(harness, "p1")
    assert [n.version for n in kept] == list(range(31, 81))  # retention 50
    first = await side.page("p1", "0", 10)
    second = await side.page("p1", first.next, 10)
    assert [e.notification.version for e in second.notifications] == list(range(41, 51))
    assert (await side.page("p2", "0", 10)).notifications == []


async def test_a_game_committed_without_its_mark_is_caught_up_by_the_sweeper(
    harness: Harness,
) -> None:
    projector = projector_of(harness)
    game_id, ada, _ = await two_player_game(harness)
    await harness.run_jobs()
    # As if the worker died between its commit and its mark: no mark, the cursor behind.
    await harness.skald.redis.delete(projector.marks.key)
    assert (await projector.step()).games == 0
    assert await feed(harness, ada) == []
    await sweep_visits(harness, projector, game_id)
    await projector.step()
    assert (await feed(harness, ada))[0].kind == "game_started"
    assert await projector.catch_up(game_id) is False  # caught up: nothing to mark


async def sweep_visits(harness: Harness, projector: NotificationProjector, game_id: str) -> None:
    """The sweeper, given the projector's catch-up, marks the game it visits."""
    redis = harness.skald.redis
    pending = PendingIndex(redis, harness.skald.settings.key_prefix, harness.skald.store.scripts)
    await redis.zadd(pending.key, {game_id: 0})
    await sweep(harness.skald.store, pending, harness.scheduler, 0, visit=projector.catch_up)
    assert await projector.marks.count() == 1


async def test_a_commit_marks_its_game_unless_guests_hold_its_seats_and_a_step_settles_it(
    harness: Harness,
) -> None:
    projector = projector_of(harness)
    assert harness.drainer.marked_by_commits  # one Redis: no mark call of the drain's own
    game_id = (await harness.skald.commands.create_game("race", race_config())).game_id
    turn = await harness.skald.reads.turn(game_id, None)
    legal = (await harness.skald.reads.turn(game_id, turn.to_act[0])).legal_commands
    await harness.skald.commands.submit(game_id, turn.to_act[0], "m1", legal[0], "r")
    await harness.run_jobs()
    # The commit marked the guests' game; a step moves its cursor to the head, forgets it.
    assert [game_id] == [g for g, _ in await projector.marks.marked(10)]
    assert (await projector.step()).games == 1
    head = await harness.skald.store.head(game_id)
    assert head is not None
    assert await projector.cursors.get(game_id) == head.version
    assert await projector.marks.count() == 0
    # Guests took both seats: nobody can ever be told of the game, and its commits mark nothing.
    for seat in range(2):
        await harness.skald.commands.join(game_id, seat, f"guest {seat}")
    await harness.skald.commands.submit(game_id, 1 - turn.to_act[0], "m2", legal[0], "r")
    await harness.run_jobs()
    outcome = await harness.skald.commands.outcome(game_id, "m2", seat=1 - turn.to_act[0])
    assert outcome.status in ("applied", "refused")  # decided: committed
    assert await projector.marks.count() == 0


async def test_a_game_marked_again_during_a_step_keeps_its_mark(harness: Harness) -> None:
    projector = projector_of(harness)
    survey = projector.survey
    assert survey is not None
    first, _, _ = await two_player_game(harness)
    guests = (await harness.skald.commands.create_game("race", race_config())).game_id
    await harness.run_jobs()
    await projector.marks.mark([first, guests])
    surveyed = await survey.marked(10)
    assert {game.game_id for game in surveyed} == {first, guests}
    # Both are marked again (a later commit) after the step read them: neither is forgotten.
    await harness.skald.redis.zadd(projector.marks.key, {first: 1e15, guests: 1e15})
    assert await survey.settle([(game, None) for game in surveyed]) == 0
    assert await projector.marks.count() == 2
    # Read again, they are forgotten; a guests' game's cursor moves with it (a Redis that
    # lost its scripts meanwhile is given the settling script again).
    surveyed = await survey.marked(10)
    await harness.skald.redis.script_flush()
    assert await survey.settle([(game, 7) for game in surveyed if game.game_id == guests]) == 1
    assert await projector.cursors.get(guests) == 7
    assert [g for g, _ in await projector.marks.marked(10)] == [first]


async def test_a_step_looks_for_due_reminders_at_most_once_a_second(harness: Harness) -> None:
    projector = projector_of(harness)
    stale = Reminder("g", 0, 1, "deadline_5m", deadline_ms=1, due_ms=0)  # its deadline is gone
    await projector.reminders.add([stale])
    await projector.step()  # looked at: not pending any more, dropped unsent
    assert await harness.skald.redis.zcard(projector.reminders.key) == 0
    await projector.reminders.add([stale])
    await projector.step()  # within the second: not looked for
    assert await harness.skald.redis.zcard(projector.reminders.key) == 1
