"""Audit: any move by version or command id, refused and queued ones included."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.chance import Chance
from domain.engine import decide
from domain.errors import IllegalCommand
from domain.games import get_game
from service.adapters.store.redis_store import RedisEventStore
from service.core.ports.event_store import EventStore
from service.core.ports.records import ReceivedCommand
from service.facade.history_side import HistoryService
from service.history.audit import audit_command, audit_version
from service.history.disclosure import OPERATOR, SPECTATOR
from service.history.history_errors import CommandNotFound, VersionNotFound
from service.history.replay import received_at
from tests.fakes.race import RaceConfig
from tests.fakes.rounds import drain_one
from tests.unit.history.conftest import PREFIX
from tests.unit.history.playthrough import PlayedGame, StoreDriver, play_through_store, seed_of
from tests.unit.history.tamper import edit_events

pytestmark = pytest.mark.anyio


def plain(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


async def finished_race(store: EventStore, players: int = 3) -> PlayedGame:
    return await play_through_store(
        store, get_game("race"), RaceConfig(players=players, target=15), seed_of(11), "g1"
    )


async def test_an_applied_move_shows_the_command_the_table_before_and_what_it_produced(
    store: EventStore,
) -> None:
    # Given a finished game
    played = await finished_race(store)
    service = HistoryService(store)
    game = played.game
    history = await service.history("g1")
    for sent in (s for s in played.sent if not s.refused):
        before = played.states[sent.version_before]
        produced = decide(game, before, sent.command, sent.seat, Chance(played.seed))
        # When the move is audited by the version of each of its events, and by its id
        by_id = audit_command(await service.history("g1"), sent.seat, sent.command_id, SPECTATOR)
        for version in range(sent.version_before + 1, sent.version_before + len(produced) + 1):
            by_version = audit_version(await service.history("g1"), version, SPECTATOR)
            assert msgspec.structs.replace(by_version, version=None) == by_id
        # Then it shows the command as received
        assert by_id.subject == "command" and by_id.status == "applied"
        assert by_id.command is not None
        assert by_id.command.seat == sent.seat
        assert by_id.command.command == plain(sent.command)
        assert by_id.command.request_id == f"req-{sent.command_id}"
        step = history.step_of(sent.seat, sent.command_id)
        assert step is not None
        assert by_id.command.received_at == received_at(step.received.inbox_id)
        # And the table before it, as the public view and the acting seat's view
        assert by_id.version_before == sent.version_before
        assert by_id.public_view_before == plain(game.view(before, None))
        assert by_id.seat_view_before == plain(game.view(before, sent.seat))
        # And the legal alternatives then, and the events it produced
        assert by_id.legal_alternatives == plain(game.legal_commands(before, sent.seat))
        assert [record.event for record in by_id.events] == plain(produced)
        # And the chain holds up to it, and (the game being over) the seed check passes
        assert by_id.chain.holds and by_id.chain.up_to == sent.version_before + len(produced)
        assert by_id.fairness is not None and by_id.fairness.status == "fair"
        assert by_id.withheld == []


async def test_a_refused_command_is_kept_and_audited_with_its_recorded_reason(
    store: EventStore,
) -> None:
    played = await finished_race(store)
    refused = [sent for sent in played.sent if sent.refused]
    assert refused
    service = HistoryService(store)
    for sent in refused:
        before = played.states[sent.version_before]
        with pytest.raises(IllegalCommand) as rules:
            decide(played.game, before, sent.command, sent.seat, Chance(played.seed))
        # When a refused command is audited by its id
        audit = audit_command(await service.history("g1"), sent.seat, sent.command_id, SPECTATOR)
        # Then it shows the reason the rules gave, on the table it met, and no events
        assert audit.status == "refused"
        assert audit.refusal is not None
        assert audit.refusal.code == rules.value.code
        assert audit.refusal.message == rules.value.message
        assert audit.version_before == sent.version_before
        assert audit.public_view_before == plain(played.game.view(before, None))
        assert audit.events == []
        assert audit.command is not None and audit.command.command == plain(sent.command)


async def test_the_opening_and_the_seed_are_audited_as_such(store: EventStore) -> None:
    played = await finished_race(store, players=2)
    service = HistoryService(store)
    created = audit_version(await service.history("g1"), 1, OPERATOR)
    assert created.subject == "opening" and created.command is None
    assert created.version_before == 0 and created.public_view_before is None
    assert created.events[0].event["type"] == "GameCreated"
    setup = audit_version(await service.history("g1"), 2, OPERATOR)
    assert setup.subject == "opening"
    assert setup.events[0].event["type"] == "RaceStarted"
    seed = audit_version(await service.history("g1"), played.last_version, OPERATOR)
    assert seed.subject == "seed"
    assert seed.events[0].event == {"type": "SeedRevealed", "seed_hex": played.seed.hex()}
    assert seed.fairness is not None and seed.fairness.status == "fair"


async def test_a_command_still_in_the_inbox_is_audited_as_queued(store: EventStore) -> None:
    played = await play_through_store(
        store, get_game("race"), RaceConfig(players=2), seed_of(12), "g1", stop_after=3
    )
    seat = played.game.to_act(played.states[played.last_version])[0]
    body = b'{"type":"Move","steps":2}'
    await store.submit("g1", ReceivedCommand(seat, "waiting", "req-w", body), "job", 0, 1000)
    audit = audit_command(await HistoryService(store).history("g1"), seat, "waiting", SPECTATOR)
    assert audit.status == "queued"
    assert audit.version_before == played.last_version
    assert audit.events == [] and audit.refusal is None


async def test_unknown_versions_and_command_ids_are_not_found(store: EventStore) -> None:
    played = await finished_race(store, players=2)
    service = HistoryService(store)
    for version in (0, played.last_version + 1):
        with pytest.raises(VersionNotFound):
            audit_version(await service.history("g1"), version, OPERATOR)
    with pytest.raises(CommandNotFound):
        audit_command(await service.history("g1"), 0, "never-sent", OPERATOR)


async def test_the_audit_says_whether_the_chain_holds_up_to_the_move(
    redis_store: RedisEventStore,
) -> None:
    # Given a finished game whose event at version 9 was edited in Redis afterwards
    played = await finished_race(redis_store, players=2)
    moved = next(sent for sent in played.sent if not sent.refused and sent.version_before >= 9)

    def louder(event: dict[str, Any]) -> dict[str, Any]:
        return {**event, "steps": 3} if event["type"] == "Moved" else {**event, "target": 99}

    await edit_events(redis_store.redis, PREFIX, "g1", {9: louder}, rechain=False)
    service = HistoryService(redis_store)
    # When moves before and after it are audited
    early = audit_version(await service.history("g1"), 8, OPERATOR)
    late = audit_command(await service.history("g1"), moved.seat, moved.command_id, OPERATOR)
    # Then the chain holds up to the earlier one, and breaks at version 9 for the later one
    assert early.chain.holds and early.chain.first_broken_version is None
    assert not late.chain.holds and late.chain.first_broken_version == 9


async def test_a_move_with_a_bad_payload_is_refused_and_auditable(store: EventStore) -> None:
    await play_through_store(
        store, get_game("race"), RaceConfig(players=2), seed_of(13), "g1", stop_after=2
    )
    bad = msgspec.json.encode({"type": "Move", "steps": "far"})
    await store.submit("g1", ReceivedCommand(0, "bad", "req-bad", bad), "job", 0, 1000)
    driver = StoreDriver(store, "race")
    await drain_one(driver.drainer, "g1")
    audit = audit_command(await HistoryService(store).history("g1"), 0, "bad", OPERATOR)
    assert audit.status == "refused"
    assert audit.refusal is not None and audit.refusal.code == "command.bad_payload"
    assert audit.command is not None and audit.command.command == {"type": "Move", "steps": "far"}
    # And the move list shows the body as received, since it is no command of the game
    frame = await HistoryService(store).replay("g1", OPERATOR)
    assert frame.moves[-1].text.startswith("at v")
    assert '"steps":"far"' in frame.moves[-1].text
