"""The command path on a real Redis with real RQ worker processes."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import pytest

from domain.chance import Chance
from domain.engine import decide, fold
from domain.errors import IllegalCommand
from domain.games import get_game
from service import bootstrap
from service.core.codec import codec_for
from service.core.pipeline.chain import first_broken_link
from service.core.ports.records import NO_INBOX_ID
from service.facade.skald import Skald
from service.shared.errors import Forbidden, InvalidInput, NotFound
from service.shared.settings import Settings
from tests.fakes.players import builtins, play_in_process, play_through_service, stream_events
from tests.fakes.race import RaceConfig, race_config, register_race
from tests.integration.conftest import Workers

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

WAIT_S = 20.0


@pytest.fixture(autouse=True)
def race_registered() -> None:
    register_race()  # the worker processes load it through SKALD_PLUGINS


async def seated(skald: Skald, config: dict[str, Any]) -> str:
    game_id = (await skald.commands.create_game("race", config)).game_id
    for _ in range(config["players"]):
        await skald.commands.join(game_id, None, "bot")
    return game_id


async def stream_size(skald: Skald, game_id: str) -> int:
    return len(await skald.store.read(game_id))


async def test_a_whole_game_through_workers_matches_in_process_play(
    skald: Skald, workers: Workers
) -> None:
    workers.start(2)
    config = RaceConfig(players=3, target=30)
    bot_seeds = [7, 8, 9]
    game_id = await seated(skald, msgspec.to_builtins(config))

    async def settle(command_id: str) -> Any:
        return await skald.commands.wait_outcome(game_id, command_id, WAIT_S)

    await play_through_service(skald, game_id, bot_seeds, settle)

    stored = await skald.store.read(game_id)
    codec = codec_for("race")
    served = [codec.decode_event(e.data) for e in stored]
    seed = bytes.fromhex(msgspec.to_builtins(served[-1])["seed_hex"])
    expected_events, expected_state = play_in_process(codec.game, config, seed, bot_seeds)
    assert builtins(stream_events(served)) == builtins(expected_events)
    assert fold(codec.game, stream_events(served)) == expected_state
    assert first_broken_link(game_id, stored) is None


async def test_a_whole_fjords_game_through_workers_matches_in_process_play(
    skald: Skald, workers: Workers
) -> None:
    try:
        game = get_game("fjords")
    except KeyError:
        pytest.skip("the Fjords engine is not registered yet")
    workers.start(2)
    config = game.example_configs()[0]
    bot_seeds = list(range(21, 21 + config.players))
    game_id = (await skald.commands.create_game(game.name, msgspec.to_builtins(config))).game_id

    async def settle(command_id: str) -> Any:
        return await skald.commands.wait_outcome(game_id, command_id, WAIT_S)

    await play_through_service(skald, game_id, bot_seeds, settle)

    stored = await skald.store.read(game_id)
    codec = codec_for(game.name)
    served = [codec.decode_event(e.data) for e in stored]
    seed = bytes.fromhex(msgspec.to_builtins(served[-1])["seed_hex"])
    expected_events, expected_state = play_in_process(game, config, seed, bot_seeds)
    assert builtins(stream_events(served)) == builtins(expected_events)
    assert fold(game, stream_events(served)) == expected_state
    assert game.outcome(expected_state) is not None
    assert first_broken_link(game_id, stored) is None


async def test_two_clients_at_once_apply_one_at_a_time_in_inbox_order(
    core_settings: Settings, skald: Skald, workers: Workers
) -> None:
    other_client = await bootstrap.connect(core_settings)  # a second API process
    game_id = await seated(skald, race_config(players=2, target=1000))
    workers.start(2)

    async def send(client: Skald, seat: int) -> list[str]:
        ids = [f"s{seat}-{n}" for n in range(40)]
        for command_id in ids:
            steps = 1 + len(command_id) % 3
            await client.commands.submit(
                game_id, seat, command_id, {"type": "Move", "steps": steps}, "r"
            )
        return ids

    sent = await asyncio.gather(send(skald, 0), send(other_client, 1))
    outcomes = [
        await skald.commands.wait_outcome(game_id, command_id, WAIT_S)
        for command_id in sent[0] + sent[1]
    ]
    await other_client.close()

    # Replaying the inbox in its order, one command at a time, gives exactly what was stored.
    assert {o.status for o in outcomes} <= {"applied", "refused"}
    game = codec_for("race").game
    seed = await skald.store.seed(game_id)
    assert seed is not None
    chance = Chance(seed)
    stored = await skald.store.read(game_id)
    codec = codec_for("race")
    state = fold(game, stream_events([codec.decode_event(e.data) for e in stored[:5]]))
    expected: list[tuple[str, str, object]] = []
    for received in await skald.store.inbox(game_id, NO_INBOX_ID, 1000):
        command = codec.decode_command(received.body)
        try:
            events = decide(game, state, command, received.seat, chance)
        except IllegalCommand as exc:
            expected.append((received.command_id, "refused", exc.code))
            continue
        state = fold(game, events, state)
        expected.append((received.command_id, "applied", len(events)))
    actual: list[tuple[str, str, object]] = []
    for received in await skald.store.inbox(game_id, NO_INBOX_ID, 1000):
        outcome = await skald.commands.outcome(game_id, received.command_id)
        if outcome.status == "refused":
            actual.append((received.command_id, "refused", outcome.code))
        else:
            span = (outcome.last_version or 0) - (outcome.first_version or 1) + 1
            actual.append((received.command_id, "applied", span))
    assert actual == expected
    assert [e for e in expected if e[1] == "applied"]  # both seats really played
    assert fold(game, stream_events([codec.decode_event(e.data) for e in stored])) == state


async def test_the_same_command_id_sent_three_times_at_once_applies_once(
    skald: Skald, workers: Workers
) -> None:
    game_id = await seated(skald, race_config())
    seat = (await skald.reads.turn(game_id, None)).to_act[0]
    workers.start(1)
    command = {"type": "Move", "steps": 2}

    first_replies = await asyncio.gather(
        *(skald.commands.submit(game_id, seat, "same", command, f"r{n}") for n in range(3))
    )
    decided = await asyncio.gather(
        *(skald.commands.wait_outcome(game_id, "same", WAIT_S) for _ in range(3))
    )
    later = await asyncio.gather(
        *(skald.commands.submit(game_id, seat, "same", command, "r") for _ in range(3))
    )

    assert {r.status for r in first_replies} <= {"queued", "applied"}
    assert len({msgspec.json.encode(o) for o in [*decided, *later]}) == 1
    assert decided[0].status == "applied"
    assert len(await skald.store.inbox(game_id, NO_INBOX_ID, 10)) == 1
    assert await stream_size(skald, game_id) == 6


async def test_bad_commands_change_nothing_in_the_stream(skald: Skald, workers: Workers) -> None:
    game_id = await seated(skald, race_config())
    to_act = (await skald.reads.turn(game_id, None)).to_act[0]
    workers.start(1)
    before = await stream_size(skald, game_id)

    with pytest.raises(InvalidInput):
        await skald.commands.submit(
            game_id, to_act, "bad1", {"type": "Move", "steps": 1, "x": 1}, "r"
        )
    with pytest.raises(InvalidInput):
        await skald.commands.submit(game_id, to_act, "bad2", {"type": "Move", "steps": "1"}, "r")
    with pytest.raises(NotFound):
        await skald.commands.submit("no-such-game", to_act, "bad3", {"type": "Boost"}, "r")
    with pytest.raises(Forbidden):
        await skald.commands.submit(game_id, 7, "bad4", {"type": "Boost"}, "r")
    await skald.commands.submit(game_id, 1 - to_act, "late", {"type": "Boost"}, "r")
    refused = await skald.commands.wait_outcome(game_id, "late", WAIT_S)

    assert (refused.status, refused.code) == ("refused", "turn.not_yours")
    assert await stream_size(skald, game_id) == before
    assert [c.command_id for c in await skald.store.inbox(game_id, NO_INBOX_ID, 10)] == ["late"]


class _Forgetful:
    """A scheduler that lets submits claim a runner slot but never enqueues the runner: an
    API process that died between the two steps."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def new_job_id(self) -> str:
        return str(self.real.new_job_id())

    async def schedule(self, job_id: str) -> None:
        return None


async def test_commands_stuck_without_a_runner_are_picked_up_by_the_sweeper(
    skald: Skald, workers: Workers
) -> None:
    game_id = await seated(skald, race_config())
    seat = (await skald.reads.turn(game_id, None)).to_act[0]
    skald.commands.scheduler = _Forgetful(skald.commands.scheduler)
    await skald.commands.submit(game_id, seat, "stuck", {"type": "Move", "steps": 1}, "r")

    workers.start(1)
    outcome = await skald.commands.wait_outcome(game_id, "stuck", WAIT_S)

    assert outcome.status == "applied"
