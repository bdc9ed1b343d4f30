"""What acts for a timed-out seat (the clock's `on_timeout`), taking an abandoned seat back
(`take_back`), and the total clock, through the facade and the drain under a clock the test
controls."""

from __future__ import annotations

from collections.abc import AsyncIterator
from io import StringIO
from typing import Any

import fakeredis
import pytest
from rich.console import Console

from contracts.stream import (
    BOT_ID_PREFIX,
    Clock,
    SeatAbandoned,
    SeatForfeited,
    SeatTakenBack,
    TurnClocks,
    TurnSkipped,
    TurnTimedOut,
)
from domain.table.forfeits import FORFEITED_LAST
from service.cli.audit_command import print_audit
from service.core.codec import codec_for
from service.core.pipeline.deadlines import fire_due
from service.history.audit import audit_version
from service.history.disclosure import OPERATOR, SPECTATOR, Disclosure
from service.history.fairness import first_mismatch
from service.history.replay import move_list
from service.shared.errors import InvalidInput
from tests.fakes.race import RaceGame, race_config
from tests.unit.facade.harness import Harness, make_harness

pytestmark = pytest.mark.anyio
DAY_S = 86_400.0


@pytest.fixture
async def harness(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> AsyncIterator[Harness]:
    made = make_harness(fake_redis, rate_per_seat=0)
    yield made
    await made.skald.close()


async def create(harness: Harness, game: str, config: dict[str, Any], clock: Clock) -> str:
    return (await harness.skald.commands.create_game(game, config, clock=clock)).game_id


async def fire(harness: Harness, now_ms: int) -> int:
    deadlines = harness.skald.commands.deadlines
    assert deadlines is not None
    report = await fire_due(deadlines, harness.skald.store, harness.scheduler, now_ms)
    await harness.run_jobs()
    return report.fired


async def stream(harness: Harness, game: str, game_id: str) -> list[tuple[Any, str | None]]:
    codec = codec_for(game)
    return [
        (codec.decode_event(e.data), e.command_id) for e in await harness.skald.store.read(game_id)
    ]


async def play_out(harness: Harness, game_id: str, player: int, silent: int) -> None:
    """`player` moves, `silent` never does (its deadlines fire) until the game ends."""
    commands = harness.skald.commands
    for step in range(400):
        turn = await harness.skald.reads.turn(game_id, player)
        if turn.finished:
            return
        if player in turn.to_act:
            await commands.submit(game_id, player, f"m{step}", turn.legal_commands[0], "r")
            await harness.run_jobs()
        else:
            assert turn.to_act == [silent]
            assert await fire(harness, turn.deadlines[silent]) == 1
    raise AssertionError("the game never finished")


async def test_a_forfeited_seat_is_ranked_last_and_the_game_goes_on(harness: Harness) -> None:
    clock = Clock(per_move_s=DAY_S, on_timeout="forfeit")
    game_id = await create(harness, "race", race_config(target=30), clock)
    silent = (await harness.skald.reads.turn(game_id, None)).to_act[0]
    player = 1 - silent
    # The player only ever moves 1 (plus the die): the bot in the forfeited seat, greedy,
    # moves 3 and wins the race on the board; the forfeit still ranks it last.
    await play_out(harness, game_id, player, silent)
    events = [e for e, _ in await stream(harness, "race", game_id)]
    assert [e for e in events if isinstance(e, TurnTimedOut | SeatForfeited)] == [
        TurnTimedOut(silent, 1),
        SeatForfeited(silent),
    ]
    turn = await harness.skald.reads.turn(game_id, None)
    assert turn.outcome is not None
    ranks = {score.seat: score.rank for score in turn.outcome.scores}
    assert ranks == {player: 1, silent: 2}
    assert turn.outcome.winners == [player]
    assert FORFEITED_LAST in turn.outcome.tie_break
    frame = await harness.skald.history.replay(game_id, SPECTATOR)
    assert frame.outcome == turn.outcome  # replay ranks it the same way
    verified = await harness.skald.history.verify(game_id)
    assert verified.ok, [c for c in verified.checks if c.status == "failed"]


async def test_skip_is_refused_at_creation_where_the_rules_never_pass(harness: Harness) -> None:
    for game, config in (("race", race_config()), ("fjords", {"players": 2})):
        with pytest.raises(InvalidInput) as refused:
            await create(harness, game, config, Clock(per_move_s=60, on_timeout="skip"))
        assert refused.value.code == "clock.skip_not_allowed"
        assert refused.value.status == 422
        assert game in refused.value.message


async def test_a_skipped_turn_passes_with_the_games_own_passing_choices(harness: Harness) -> None:
    clock = Clock(per_move_s=DAY_S, on_timeout="skip", abandon_after=5)
    game_id = await create(harness, "landnam", {"players": 3}, clock)
    turn = await harness.skald.reads.turn(game_id, None)
    [seat] = turn.to_act
    assert await fire(harness, turn.deadlines[seat]) == 1
    events = await stream(harness, "landnam", game_id)
    kinds = [e for e, _ in events if isinstance(e, TurnTimedOut | TurnSkipped)]
    assert kinds == [TurnTimedOut(seat, 1), TurnSkipped(seat)]
    passes = [cid for _, cid in events if cid and cid.endswith(":pass")]
    assert passes and all(cid.startswith(f"{BOT_ID_PREFIX}{seat}:") for cid in passes)
    after = await harness.skald.reads.turn(game_id, None)
    assert seat not in after.to_act  # the turn went on to the next seat
    history = await harness.skald.history.history(game_id)
    audit = audit_version(history, _version_of(events, passes[0]), OPERATOR)
    assert audit.subject == "bot"  # audit marks the passing moves as the service's
    # The fairness check (run once the seed is out) re-derives the passing moves from the seed
    seed = await harness.skald.store.seed(game_id)
    assert seed is not None
    assert first_mismatch(history, seed) is None
    verified = await harness.skald.history.verify(game_id)
    assert verified.ok, [c for c in verified.checks if c.status == "failed"]


def _version_of(events: list[tuple[Any, str | None]], command_id: str) -> int:
    return next(v for v, (_, cid) in enumerate(events, start=1) if cid == command_id)


async def abandoned_game(harness: Harness, take_back: bool) -> tuple[str, int]:
    """A race whose first seat to act missed its turn once, with abandon_after 1."""
    clock = Clock(per_move_s=DAY_S, abandon_after=1, take_back=take_back)
    game_id = await create(harness, "race", race_config(target=40), clock)
    turn = await harness.skald.reads.turn(game_id, None)
    [silent] = turn.to_act
    assert await fire(harness, turn.deadlines[silent]) == 1
    assert SeatAbandoned(silent) in [e for e, _ in await stream(harness, "race", game_id)]
    return game_id, silent


async def test_an_abandoned_seat_is_taken_back_by_its_players_next_command(
    harness: Harness,
) -> None:
    commands = harness.skald.commands
    game_id, seat = await abandoned_game(harness, take_back=True)
    # Not the seat's turn (the bot played it): the rules refuse the move, the take-back stands.
    await commands.submit(game_id, seat, "back", {"type": "Move", "steps": 1}, "r")
    await harness.run_jobs()
    assert (await commands.outcome(game_id, "back")).code == "turn.not_yours"
    events = [e for e, _ in await stream(harness, "race", game_id)]
    assert events.count(SeatTakenBack(seat)) == 1
    # The other seat moves: now the game waits for the player again, with a deadline.
    other = 1 - seat
    turn = await harness.skald.reads.turn(game_id, other)
    await commands.submit(game_id, other, "o1", turn.legal_commands[0], "r")
    await harness.run_jobs()
    mine = await harness.skald.reads.turn(game_id, seat)
    assert mine.to_act == [seat] and seat in mine.deadlines
    await commands.submit(game_id, seat, "mine", mine.legal_commands[0], "r")
    await harness.run_jobs()
    assert (await commands.outcome(game_id, "mine")).status == "applied"
    verified = await harness.skald.history.verify(game_id)
    assert verified.ok, [c for c in verified.checks if c.status == "failed"]
    # Replay's move list shows the take-back with the command that took the seat back, and
    # audit by version marks it as the service's event (no command's span holds it)
    stored = await stream(harness, "race", game_id)
    taken_at = next(v for v, (e, _) in enumerate(stored, start=1) if e == SeatTakenBack(seat))
    history = await harness.skald.history.history(game_id)
    disclosure = Disclosure(SPECTATOR, history.game, history.finished)
    moves = {m.command_id: m.text for m in move_list(history, disclosure, history.last_version)}
    assert moves["back"].startswith(f"v{taken_at} seat {seat} took the seat back from the bot; ")
    assert moves["back"].endswith("refused")  # the rules refused the move, the take-back stands
    assert "took the seat back" not in moves["o1"] + moves["mine"]
    before = move_list(history, disclosure, taken_at - 1)
    assert all("took the seat back" not in m.text for m in before)
    assert audit_version(history, taken_at, OPERATOR).subject == "service"
    assert audit_version(history, 1, OPERATOR).subject == "opening"
    # and the audit CLI prints both the take-back and a bot's move by version
    bot_at = next(v for v, (_, cid) in enumerate(stored, start=1) if cid and cid.startswith("bot:"))
    printed = StringIO()
    out = Console(file=printed, width=200)
    print_audit(out, history, audit_version(history, taken_at, OPERATOR))
    print_audit(out, history, audit_version(history, bot_at, OPERATOR))
    assert f"version {taken_at}: the service's own event" in printed.getvalue()
    assert f"version {bot_at}: a bot's move" in printed.getvalue()


async def test_an_abandoned_seat_stays_the_bots_without_take_back(harness: Harness) -> None:
    commands = harness.skald.commands
    game_id, seat = await abandoned_game(harness, take_back=False)
    await commands.submit(game_id, seat, "back", {"type": "Move", "steps": 1}, "r")
    await harness.run_jobs()
    refused = await commands.outcome(game_id, "back")
    assert (refused.status, refused.code) == ("refused", "seat.abandoned")
    other = 1 - seat
    turn = await harness.skald.reads.turn(game_id, other)
    await commands.submit(game_id, other, "o1", turn.legal_commands[0], "r")
    await harness.run_jobs()
    after = await harness.skald.reads.turn(game_id, seat)
    assert seat not in after.to_act  # the bot played the seat's turn at once
    assert SeatTakenBack(seat) not in [e for e, _ in await stream(harness, "race", game_id)]


async def test_a_total_clock_that_runs_out_fires_the_timeout(harness: Harness) -> None:
    # A day per move, but a 5 s bank: the bank sets the deadline, and firing it times out.
    clock = Clock(per_move_s=DAY_S, total_s=5, increment_s=1)
    game_id = await create(harness, "race", race_config(), clock)
    turn = await harness.skald.reads.turn(game_id, None)
    [seat] = turn.to_act
    events = await stream(harness, "race", game_id)
    [entry] = [e for e in _clocks(events)[-1].entries if e.seat == seat]
    assert entry.deadline_ms - entry.started_ms == 5_000 == entry.bank_ms
    assert await fire(harness, entry.deadline_ms - 1) == 0
    assert await fire(harness, entry.deadline_ms) == 1
    timed_out = [e for e, _ in await stream(harness, "race", game_id)]
    assert TurnTimedOut(seat, 1) in timed_out


def _clocks(events: list[tuple[Any, str | None]]) -> list[TurnClocks]:
    return [e for e, _ in events if isinstance(e, TurnClocks)]


async def test_a_game_that_ends_leaves_no_deadline_and_verify_reports_a_stray_one(
    harness: Harness,
) -> None:
    deadlines = harness.skald.commands.deadlines
    assert deadlines is not None
    clock = Clock(per_move_s=DAY_S, abandon_after=1)
    game_id = await create(harness, "race", race_config(target=30), clock)
    turn = await harness.skald.reads.turn(game_id, None)
    [silent] = turn.to_act
    # As a batch that indexed its deadline and then lost its lease would leave it: a member
    # whose version the committed stream never names.
    await deadlines.add(game_id, [(silent, 10_000, turn.deadlines[silent] + 10**9)])
    await play_out(harness, game_id, 1 - silent, silent)
    assert await deadlines.of_game(game_id) == []
    report = await harness.skald.history.verify(game_id)
    assert report.ok, [c for c in report.checks if c.status == "failed"]
    await deadlines.add(game_id, [(silent, 10_001, 1)])  # a stray after the end
    report = await harness.skald.history.verify(game_id)
    [failed] = [c for c in report.checks if c.status == "failed"]
    assert failed.name == "deadlines" and f"{game_id}|{silent}|10001" in failed.detail


async def test_rebuilt_projections_equal_the_stored_ones_in_every_phase(harness: Harness) -> None:
    players = harness.skald.players
    ada, bo = await players.register("Ada"), await players.register("Bo")
    clock = Clock(per_move_s=DAY_S)

    async def projections_check(game_id: str) -> Any:
        report = await harness.skald.history.verify(game_id)
        return next(c for c in report.checks if c.name == "projections")

    opened = (await players.create_game(ada.player_id, "race", race_config(), None, clock)).game_id
    await players.join(ada.player_id, opened, 0)
    assert (await harness.skald.reads.turn(opened, None)).phase == "open"
    assert (await projections_check(opened)).status == "ok"
    await players.join(bo.player_id, opened, 1)
    await harness.run_jobs()
    turn = await harness.skald.reads.turn(opened, None)
    assert turn.phase == "started" and turn.deadlines  # a deadline in the stored turn
    assert (await projections_check(opened)).status == "ok"
    created = await players.create_game(ada.player_id, "race", race_config(), None, clock)
    cancelled = created.game_id
    await players.cancel(ada.player_id, cancelled)
    await harness.run_jobs()
    assert (await harness.skald.reads.turn(cancelled, None)).phase == "cancelled"
    assert (await projections_check(cancelled)).status == "ok"
    report = await harness.skald.history.verify(cancelled)
    assert report.ok, [c for c in report.checks if c.status == "failed"]
