"""Replay: any game at any version from its events alone, with its move list."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from contracts.base import GameConfig
from domain.chance import Chance
from domain.engine import decide
from domain.errors import IllegalCommand
from domain.games import game_names, get_game, register
from service.core.ports.event_store import EventStore, GameMissing
from service.core.ports.views import view_field
from service.core.projections import decode_turn
from service.facade.history_side import HistoryService
from service.history.disclosure import SPECTATOR
from service.history.history_errors import RulesVersionMismatch, VersionOutOfRange
from service.history.replay import replay_frame
from tests.fakes.race import RaceConfig, RaceGame
from tests.unit.history.playthrough import PlayedGame, play_through_store, seed_of

pytestmark = pytest.mark.anyio


def game_cases() -> list[Any]:
    """The race in two sizes, and every built-in game in its first example config."""
    cases = [
        pytest.param("race", RaceConfig(players=2, target=12), id="race-2"),
        pytest.param("race", RaceConfig(players=3, target=15), id="race-3"),
    ]
    for name in game_names():
        if name != "race":
            cases.append(pytest.param(name, get_game(name).example_configs()[0], id=name))
    return cases


def plain(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


def refusal_code(played: PlayedGame, version: int, seat: int, command: Any) -> str:
    """The code the rules give when `command` is decided on live play's state at `version`."""
    with pytest.raises(IllegalCommand) as refused:
        decide(played.game, played.states[version], command, seat, Chance(played.seed))
    return refused.value.code


@pytest.mark.parametrize(("name", "config"), game_cases())
async def test_replay_at_every_version_equals_the_state_live_play_saw(
    store: EventStore, name: str, config: GameConfig
) -> None:
    # Given a seeded game played to the end through the store, refused commands among its moves
    played = await play_through_store(store, get_game(name), config, seed_of(3), "g1")
    # When it is replayed from its events at every version
    history = await HistoryService(store).history("g1")
    # Then each replayed state equals the state live play had at that version
    assert history.last_version == played.last_version
    for version in range(1, played.last_version + 1):
        assert history.state_at(version) == played.live_state(version), version
    # And stepping through the states in one pass gives the same states
    for version, state in history.states():
        assert state == played.live_state(version), version


@pytest.mark.parametrize(("name", "config"), game_cases())
async def test_replayed_views_equal_the_projections_clients_were_served_live(
    store: EventStore, name: str, config: GameConfig
) -> None:
    # Given a finished game, and the projections the worker stored after each move
    played = await play_through_store(store, get_game(name), config, seed_of(4), "g1")
    history = await HistoryService(store).history("g1")
    assert played.finished
    # When every seat's view and the public one are replayed at those versions
    for version, fields in played.projections.items():
        for seat in [None, *range(config.players)]:
            frame = replay_frame(history, SPECTATOR, at=version, seat=seat)
            # Then each equals what was served live, and so do the seats to act
            served = msgspec.json.decode(fields[view_field("json", seat)])
            assert frame.view == served["view"], (version, seat)
            turn = decode_turn(fields[view_field("turn", seat)])
            assert frame.to_act == turn.to_act
            assert (frame.outcome is not None) == turn.finished


async def test_the_move_list_names_who_did_what_at_which_version_refusals_included(
    store: EventStore,
) -> None:
    # Given a finished race in which some commands were refused
    played = await play_through_store(
        store, get_game("race"), RaceConfig(players=3, target=15), seed_of(5), "g1"
    )
    assert any(sent.refused for sent in played.sent)
    # When its last version is replayed
    frame = await HistoryService(store).replay("g1", SPECTATOR)
    # Then every command sent is listed, in the order sent, as sent
    assert [move.command_id for move in frame.moves] == [s.command_id for s in played.sent]
    for move, sent in zip(frame.moves, played.sent, strict=True):
        assert move.seat == sent.seat
        assert move.command == plain(sent.command)
        assert f"seat {sent.seat}: {sent.command!r}" in move.text
        if sent.refused:
            # And a refused one carries the code the rules give on the table it met
            code = refusal_code(played, sent.version_before, sent.seat, sent.command)
            assert move.status == "refused"
            assert move.refusal is not None and move.refusal.code == code
            assert code in move.text
            assert move.events == []
        else:
            # And an applied one the versions and events the rules produce on that table
            expected = decide(
                played.game,
                played.states[sent.version_before],
                sent.command,
                sent.seat,
                Chance(played.seed),
            )
            assert move.status == "applied"
            assert move.first_version == sent.version_before + 1
            assert move.last_version == sent.version_before + len(expected)
            assert [record.event for record in move.events] == plain(expected)
            assert repr(expected[0]) in move.text


async def test_a_replay_lists_only_the_moves_decided_by_its_version(store: EventStore) -> None:
    played = await play_through_store(
        store, get_game("race"), RaceConfig(players=2, target=12), seed_of(6), "g1"
    )
    history = await HistoryService(store).history("g1")
    applied = [sent for sent in played.sent if not sent.refused]
    # When the game is replayed just after its third applied move
    third = applied[2].version_before + 1
    frame = replay_frame(history, SPECTATOR, at=third)
    # Then the move list ends with that move
    listed = [move.command_id for move in frame.moves if move.status == "applied"]
    assert listed == [sent.command_id for sent in applied[:3]]


async def test_version_one_holds_no_table_yet(store: EventStore) -> None:
    await play_through_store(
        store, get_game("race"), RaceConfig(players=2), seed_of(7), "g1", stop_after=2
    )
    frame = await HistoryService(store).replay("g1", SPECTATOR, at=1)
    assert frame.view is None
    assert frame.to_act == []
    assert frame.moves == []


@pytest.mark.parametrize("at", [0, -1, 999])
async def test_a_version_outside_the_stream_is_refused_with_the_valid_range(
    store: EventStore, at: int
) -> None:
    played = await play_through_store(
        store, get_game("race"), RaceConfig(players=2), seed_of(7), "g1", stop_after=2
    )
    with pytest.raises(VersionOutOfRange) as refused:
        await HistoryService(store).replay("g1", SPECTATOR, at=at)
    assert refused.value.details == {"version": at, "last_version": played.last_version}
    assert f"to {played.last_version}" in refused.value.message


@pytest.mark.parametrize("game_id", ["nope", "bad{id}", ""])
async def test_an_unknown_game_is_not_found(store: EventStore, game_id: str) -> None:
    with pytest.raises(GameMissing):
        await HistoryService(store).replay(game_id, SPECTATOR)


class RaceUnderNewRules(RaceGame):
    """The race after a rules change: stored games must not replay under it."""

    rules_version = "2"


async def test_a_game_created_under_other_rules_fails_naming_both_versions(
    store: EventStore,
) -> None:
    # Given a race created under rules "1", and code that now implements rules "2"
    await play_through_store(
        store, get_game("race"), RaceConfig(players=2), seed_of(8), "g1", stop_after=3
    )
    register(RaceUnderNewRules())
    service = HistoryService(store)
    # When it is replayed, audited or checked for fairness
    attempts = [
        service.replay("g1", SPECTATOR),
        service.history("g1"),  # what every audit decodes first
        service.fairness("g1"),
    ]
    for attempt in attempts:
        # Then each fails with a clear error naming both versions
        with pytest.raises(RulesVersionMismatch) as refused:
            await attempt
        assert refused.value.code == "game.rules_version"
        assert "version '1'" in refused.value.message
        assert "version '2'" in refused.value.message
    # And verification reports it, while still checking what needs no rules
    report = await service.verify("g1")
    checks = {check.name: check for check in report.checks}
    assert not report.ok
    assert checks["rules"].status == "failed"
    assert "'1'" in checks["rules"].detail and "'2'" in checks["rules"].detail
    assert checks["chain"].status == "ok"
    assert checks["fairness"].status == "skipped"
