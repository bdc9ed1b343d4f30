"""Workers killed with SIGKILL while games are played: nothing acknowledged is lost, nothing
applies twice, every chain holds and every game finishes (a short run always, a long one with
--slow)."""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict

import pytest

from domain.engine import fold
from service.core.codec import codec_for
from service.core.pipeline.chain import first_broken_link
from service.core.ports.records import NO_INBOX_ID
from service.facade.skald import Skald
from tests.fakes.players import ClientBot, stream_events
from tests.fakes.race import race_config, register_race
from tests.integration.conftest import Workers

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

WAIT_S = 5.0


async def play(skald: Skald, game_id: str, seed: int, decided: asyncio.Queue[str]) -> int:
    """Play one game to the end, re-sending (same id) whatever is still queued after a wait."""
    bots = {seat: ClientBot(seed + seat) for seat in range(2)}
    sent = 0
    while not (public := await skald.reads.turn(game_id, None)).finished:
        seat = public.to_act[0]
        options = (await skald.reads.turn(game_id, seat)).legal_commands
        command_id = f"{game_id}-{sent}"
        command = bots[seat].choose(options)
        while True:
            await skald.commands.submit(game_id, seat, command_id, command, "r")
            outcome = await skald.commands.wait_outcome(game_id, command_id, WAIT_S)
            if outcome.status != "queued":
                break  # a retry with the same id: the client timed out, the command did not
        assert outcome.status == "applied", outcome
        decided.put_nowait(command_id)
        sent += 1
    return sent


async def chaos(
    workers: Workers, decided: asyncio.Queue[str], every: int, rng: random.Random
) -> int:
    """Kill a random worker (and start another) each time `every` more commands are decided."""
    kills = 0
    seen = 0
    while True:
        await decided.get()
        seen += 1
        if seen % every == 0:
            workers.kill(rng.randrange(len(workers.processes)))
            workers.start(1)
            kills += 1


@pytest.mark.parametrize(
    ("games", "target", "kill_every"),
    [
        pytest.param(6, 30, 12, id="short"),
        pytest.param(40, 60, 25, id="long", marks=pytest.mark.slow),
    ],
)
async def test_games_survive_workers_killed_at_random(
    skald: Skald, workers: Workers, games: int, target: int, kill_every: int
) -> None:
    register_race()
    workers.start(3)
    game_ids = [
        (await skald.commands.create_game("race", race_config(2, target))).game_id
        for _ in range(games)
    ]
    decided: asyncio.Queue[str] = asyncio.Queue()
    killer = asyncio.create_task(chaos(workers, decided, kill_every, random.Random(5)))

    sent = await asyncio.gather(
        *(play(skald, game_id, 100 * n, decided) for n, game_id in enumerate(game_ids))
    )
    killer.cancel()

    codec = codec_for("race")
    for game_id in game_ids:
        stored = await skald.store.read(game_id)
        assert first_broken_link(game_id, stored) is None
        inbox = await skald.store.inbox(game_id, NO_INBOX_ID, 10_000)
        versions_by_command: dict[str | None, list[int]] = defaultdict(list)
        for event in stored:
            versions_by_command[event.command_id].append(event.version)
        for received in inbox:
            outcome = await skald.commands.outcome(game_id, received.command_id, seat=received.seat)
            assert outcome.status == "applied"
            span = list(range(outcome.first_version or 0, (outcome.last_version or -1) + 1))
            assert versions_by_command[received.key] == span  # applied exactly once
        assert len(inbox) == len({r.key for r in inbox})
        state = fold(codec.game, stream_events([codec.decode_event(e.data) for e in stored]))
        assert codec.game.outcome(state) is not None
    print(f"\n{sum(sent)} commands in {games} games, {sum(sent) // kill_every} worker kills")
