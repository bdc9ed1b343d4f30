"""Deciding batches: accepted and refused commands, the end of a game, rules versions."""

from __future__ import annotations

from typing import Any

import pytest

from contracts.stream import SeedRevealed
from domain.chance import Chance
from domain.engine import decide
from domain.errors import IllegalCommand
from service.adapters.store.redis_store import RedisEventStore
from service.core.codec import GameCodec
from service.core.pipeline.apply import plan_batch
from service.core.pipeline.chain import first_broken_link, genesis, link
from service.core.pipeline.session import GameSession, load_session
from service.core.ports.records import NO_INBOX_ID, GameMeta, ReceivedCommand, StoredEvent
from tests.fakes.race import Move, RaceGame
from tests.unit.core.helpers import SEED, body, queue, race_state, stored_race

pytestmark = pytest.mark.anyio

GAME_ID = "race1"


async def session_with(
    store: RedisEventStore, commands: list[tuple[int, dict[str, Any]]], target: int = 12
) -> tuple[GameSession, list[ReceivedCommand]]:
    await stored_race(store, GAME_ID, target=target)
    for n, (seat, command) in enumerate(commands):
        await queue(store, GAME_ID, f"c{n}", seat, command)
    session = await load_session(store, GAME_ID)
    return session, await store.inbox(GAME_ID, NO_INBOX_ID, 100)


def first_seat() -> int:
    return int(race_state().turn)


async def test_an_accepted_command_appends_its_events_on_the_chain(
    store: RedisEventStore, race: RaceGame
) -> None:
    seat = first_seat()
    session, received = await session_with(store, [(seat, {"type": "Move", "steps": 2})])
    head_before = session.head_hash

    plan = plan_batch(session, received)

    record = plan.decided[0].record
    assert (record.status, record.seat, record.first_version, record.last_version) == (
        "applied",
        seat,
        6,
        6,
    )
    assert plan.events[0].hash == link(head_before, plan.events[0].data)
    assert plan.cursor == received[0].inbox_id
    expected = race_state()
    RaceGame().evolve(expected, decide(RaceGame(), expected, Move(2), seat, Chance(SEED))[0])
    assert session.state == expected and session.version == 6


async def test_an_out_of_turn_command_is_refused_with_the_rules_reason(
    store: RedisEventStore, race: RaceGame
) -> None:
    other = 1 - first_seat()
    session, received = await session_with(store, [(other, {"type": "Move", "steps": 1})])
    state_before = race.copy_state(session.state)

    plan = plan_batch(session, received)

    record = plan.decided[0].record
    assert (record.status, record.code) == ("refused", "turn.not_yours")
    assert record.details == {"seat": other, "to_act": [first_seat()]}
    assert plan.events == []
    assert session.state == state_before and session.version == 5
    assert plan.cursor == received[0].inbox_id  # a refusal is processed too


async def test_a_body_that_no_longer_decodes_is_refused(
    store: RedisEventStore, race: RaceGame
) -> None:
    session, _ = await session_with(store, [])
    stale = ReceivedCommand(first_seat(), "old", "r", b'{"type":"Teleport"}', "1-0")

    plan = plan_batch(session, [stale])

    assert plan.decided[0].record.code == "command.bad_payload"
    assert plan.events == []


async def test_the_winning_command_reveals_the_seed_and_later_ones_are_refused(
    store: RedisEventStore,
    race: RaceGame,
) -> None:
    state = race_state(target=5)
    seats = [state.turn, 1 - state.turn] * 4  # alternate; the race to 5 ends within 4 moves
    commands = [(seat, {"type": "Move", "steps": 3}) for seat in seats]
    session, received = await session_with(store, commands, target=5)

    plan = plan_batch(session, received)

    statuses = [d.record.status for d in plan.decided]
    winner = statuses.index("refused") - 1
    assert statuses[: winner + 1] == ["applied"] * (winner + 1)
    assert {d.record.code for d in plan.decided[winner + 1 :]} == {"game.finished"}
    assert plan.finished and session.finished
    revealed = session.codec.decode_event(plan.events[-1].data)
    assert revealed == SeedRevealed(SEED.hex())
    assert plan.events[-1].command_id is None
    assert plan.decided[winner].record.last_version == plan.version - 1  # the seed is not its
    assert race.outcome(session.state) is not None


async def test_a_game_under_other_rules_refuses_every_command(
    store: RedisEventStore, race: RaceGame
) -> None:
    opened = await stored_race(store, GAME_ID)
    await queue(store, GAME_ID, "c1", first_seat(), {"type": "Move", "steps": 1})
    session = await load_session(store, GAME_ID)
    session.meta = GameMeta(opened.meta.game, "0-old", 2, opened.meta.created_at)

    plan = plan_batch(session, await store.inbox(GAME_ID, NO_INBOX_ID, 10))

    record = plan.decided[0].record
    assert (record.status, record.code) == ("refused", "game.rules_version")
    assert record.details == {"game_rules": "0-old", "service_rules": "1"}
    assert "0-old" in (record.message or "")
    assert plan.events == []


class _Broken(RaceGame):
    """The race with a bug in decide (on Boost) or in evolve (on moves of 3)."""

    def decide(self, state: Any, command: Any, seat: int, chance: Chance) -> Any:
        if command == {"type": "Boost"} or type(command).__name__ == "Boost":
            raise ZeroDivisionError("bug in decide")
        return super().decide(state, command, seat, chance)

    def evolve(self, state: Any, event: Any) -> Any:
        if getattr(event, "steps", None) == 3:
            state.positions[0] = 999  # half-applied: the state can no longer be trusted
            raise ZeroDivisionError("bug in evolve")
        return super().evolve(state, event)


async def test_a_crash_in_the_rules_refuses_that_command_only(
    store: RedisEventStore, race: RaceGame
) -> None:
    seat = first_seat()
    session, received = await session_with(
        store,
        [(seat, {"type": "Boost"}), (seat, {"type": "Move", "steps": 1})],
    )
    session.codec = GameCodec(_Broken())

    plan = plan_batch(session, received)

    assert [d.record.code or d.record.status for d in plan.decided] == [
        "engine.error",
        "applied",
    ]


async def test_a_crash_while_evolving_drops_the_command_and_stops_the_batch(
    store: RedisEventStore,
    race: RaceGame,
) -> None:
    seat = first_seat()
    session, received = await session_with(
        store,
        [(seat, {"type": "Move", "steps": 3}), (1 - seat, {"type": "Move", "steps": 1})],
    )
    session.codec = GameCodec(_Broken())
    head_before = session.head_hash

    plan = plan_batch(session, received)

    assert [d.record.code for d in plan.decided] == ["engine.error"]
    assert plan.events == [] and not plan.state_trusted
    assert (session.version, session.head_hash) == (5, head_before)
    assert plan.cursor == received[0].inbox_id


class _Detailed(RaceGame):
    """The race refusing every command with details that are not plain JSON."""

    def decide(self, state: Any, command: Any, seat: int, chance: Chance) -> Any:
        raise IllegalCommand("race.nope", "no", corner=(1, 2))


async def test_refusal_details_are_kept_as_json_shows_them(
    store: RedisEventStore, race: RaceGame
) -> None:
    session, received = await session_with(store, [(first_seat(), {"type": "Boost"})])
    session.codec = GameCodec(_Detailed())

    plan = plan_batch(session, received)

    assert plan.decided[0].record.details == {"corner": [1, 2]}


def test_the_chain_check_names_the_first_edited_event() -> None:
    value = genesis("g")
    events = []
    for version, data in enumerate([b"a", b"b", b"c"], 1):
        value = link(value, data)
        events.append(StoredEvent(version, data, value))
    edited = [events[0], StoredEvent(2, b"B", events[1].hash), events[2]]

    assert first_broken_link("g", events) is None
    assert first_broken_link("g", edited) == 2


def test_commands_are_stored_in_canonical_form(race: RaceGame) -> None:
    assert body({"steps": 2, "type": "Move"}) == b'{"type":"Move","steps":2}'
