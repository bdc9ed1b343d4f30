"""Which bot played a stand-in seat is in its moves' command ids, and the fairness check
re-derives each move with that bot: games whose stand-ins were random (stored before the
greedy bots, with unmarked ids `bot:<seat>:<version>`) verify, as new ones do."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import fakeredis
import msgspec
import pytest

from domain.table import standins
from domain.table.standins import BotMove, bot_command_id, parse_bot_id
from service.adapters.store.keys import GameKeys
from tests.fakes.race import RaceGame, race_config
from tests.unit.facade.harness import Harness, make_harness
from tests.unit.history.tamper import edit_events

pytestmark = pytest.mark.anyio
PREFIX = "t:"


@pytest.fixture
async def harness(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> AsyncIterator[Harness]:
    made = make_harness(fake_redis)
    yield made
    await made.skald.close()


async def play_against_a_bot(harness: Harness) -> str:
    """A race of Ada against the creator's bot in seat 1, played to the end."""
    players, commands = harness.skald.players, harness.skald.commands
    ada = await players.register("Ada")
    game_id = (await players.create_game(ada.player_id, "race", race_config(), None)).game_id
    await players.join(ada.player_id, game_id, 0)
    await players.start(ada.player_id, game_id)
    await harness.run_jobs()
    for step in range(200):
        turn = await harness.skald.reads.turn(game_id, 0)
        if turn.finished:
            break
        await commands.submit(game_id, 0, f"m{step}", turn.legal_commands[0], "r")
        await harness.run_jobs()
    assert (await harness.skald.reads.turn(game_id, 0)).finished
    return game_id


async def bot_ids(harness: Harness, game_id: str) -> list[tuple[int, str]]:
    stored = await harness.skald.store.read(game_id)
    return [
        (e.version, e.command_id)
        for e in stored
        if e.command_id is not None and parse_bot_id(e.command_id) is not None
    ]


async def rename_ids(
    redis: fakeredis.aioredis.FakeRedis, game_id: str, rename: Callable[[str], str]
) -> None:
    """Rewrite the bot moves' command ids in the stream (the events and chain untouched)."""
    events = GameKeys(PREFIX, game_id).events
    entries = await redis.xrange(events)
    await redis.delete(events)
    for entry_id, fields in entries:
        command_id = fields.get(b"c")
        if command_id is not None and command_id.startswith(b"bot:"):
            fields[b"c"] = rename(command_id.decode()).encode()
        await redis.xadd(events, fields, id=entry_id)


async def test_a_new_game_names_the_greedy_bot_and_verifies(harness: Harness) -> None:
    game_id = await play_against_a_bot(harness)
    ids = await bot_ids(harness, game_id)
    assert ids and all(cid.endswith(":greedy") for _, cid in ids)
    assert all(parse_bot_id(cid) == BotMove(1, int(cid.split(":")[2]), "greedy") for _, cid in ids)
    report = await harness.skald.history.fairness(game_id)
    assert report.status == "fair", report
    verified = await harness.skald.history.verify(game_id)
    assert verified.ok, verified


async def test_a_game_stored_with_random_stand_ins_still_verifies(
    harness: Harness, fake_redis: fakeredis.aioredis.FakeRedis, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a game written the way the release before wrote it: random stand-ins, unmarked ids
    monkeypatch.setattr(standins, "STANDIN_BOT", "random")
    game_id = await play_against_a_bot(harness)
    monkeypatch.undo()
    ids = await bot_ids(harness, game_id)
    assert ids and all(cid.count(":") == 2 for _, cid in ids)  # bot:<seat>:<version>
    assert {parse_bot_id(cid).kind for _, cid in ids} == {"random"}  # type: ignore[union-attr]
    # When it is checked now that stand-ins are greedy: fair, and verify passes
    report = await harness.skald.history.fairness(game_id)
    assert report.status == "fair", report
    verified = await harness.skald.history.verify(game_id)
    assert verified.ok, verified
    # And the kind matters: the same moves claimed by the greedy bot are not its moves
    await rename_ids(fake_redis, game_id, lambda cid: f"{cid}:greedy")
    claimed = await harness.skald.history.fairness(game_id)
    assert claimed.status == "unfair"
    assert claimed.mismatch is not None
    assert claimed.mismatch.version in {version for version, _ in ids}


async def test_a_tampered_bot_move_fails_fairness(
    harness: Harness, fake_redis: fakeredis.aioredis.FakeRedis
) -> None:
    # Given a finished game whose first bot move was rewritten, the chain recomputed to hide it
    game_id = await play_against_a_bot(harness)
    # The first bot move that moved (the game's seed is drawn: a bot's first event may be a
    # boost, which has no steps to rewrite)
    stored = await harness.skald.store.read(game_id)
    version = next(
        e.version
        for e in stored
        if e.command_id is not None
        and parse_bot_id(e.command_id) is not None
        and msgspec.msgpack.decode(e.data)["type"] == "Moved"
    )

    def other_steps(event: dict[str, object]) -> dict[str, object]:
        assert event["type"] == "Moved"
        steps = event["steps"]
        assert isinstance(steps, int)
        return {**event, "steps": steps % 3 + 1}

    await edit_events(fake_redis, PREFIX, game_id, {version: other_steps}, rechain=True)
    # Then fairness names that version, and verify fails
    report = await harness.skald.history.fairness(game_id)
    assert report.status == "unfair"
    assert report.mismatch is not None and report.mismatch.version == version
    assert not (await harness.skald.history.verify(game_id)).ok


def test_bot_ids_round_trip_and_malformed_ones_name_no_move() -> None:
    for kind in ("random", "greedy", "pass"):
        assert parse_bot_id(bot_command_id(2, 17, kind)) == BotMove(2, 17, kind)  # type: ignore[arg-type]
    assert bot_command_id(2, 17, "random") == "bot:2:17"  # the form stored before markers
    assert bot_command_id(2, 17) == "bot:2:17:greedy"
    for bad in ("bot:2", "bot:x:17", "bot:2:17:smart", "bot:2:17:greedy:1", "0:m1"):
        assert parse_bot_id(bad) is None
