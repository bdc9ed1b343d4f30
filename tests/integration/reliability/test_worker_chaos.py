"""Workers killed with SIGKILL at random (seeded) moments while many games are played.

Beyond tests/integration/test_faults.py (every acknowledged command applied exactly once), the
clients here also fire commands they never wait for (out of turn, or abandoned after a short
wait): those apply at most once. Every stream's hash chain, events, projections and seed then
pass `skald verify`'s checks, and every game finishes.

The games are poisoned races (tests/fakes/poison.py): now and then the seat to act first sends
a poison command (rules that raise, an event or refusal MessagePack cannot hold, views that
fail). Each is refused with its code, and no game freezes: every inbox is drained to its end.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from contracts.api import CommandOutcome
from domain.games import unregister
from service.core.ports.records import NO_INBOX_ID
from service.facade.skald import Skald
from service.shared.settings import Settings
from tests.fakes.players import ClientBot
from tests.fakes.poison import NAME as POISONED
from tests.fakes.poison import POISONS, refusal_code, register
from tests.fakes.race import race_config
from tests.integration.conftest import Workers

from .figures import record_figures

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

WAIT_S = 5.0
POISON_RATE = 0.2  # of moves preceded by a poison command


@pytest.fixture
def core_settings(core_settings: Settings) -> Iterator[Settings]:
    """The poisoned race installed in the workers, and in this process for the facade."""
    register()
    yield msgspec.structs.replace(core_settings, plugins="tests.fakes.poison")
    unregister(POISONED)


async def play(
    skald: Skald, game_id: str, seed: int, decided: asyncio.Queue[str], counts: Counter[str]
) -> None:
    """Play a game to its end; each move may come with a stray command nobody waits for."""
    rng = random.Random(seed)
    bots = {seat: ClientBot(seed + seat) for seat in range(2)}
    sent = 0
    while not (public := await skald.reads.turn(game_id, None)).finished:
        seat = public.to_act[0]
        if rng.random() < 0.3:
            # A stray: the other seat moves out of turn and never asks what became of it.
            stray = {"type": "Move", "steps": 1}
            await skald.commands.submit(game_id, 1 - seat, f"{game_id}-stray-{sent}", stray, "r")
            counts["fire_and_forget"] += 1
        if rng.random() < POISON_RATE:
            steps = rng.choice(POISONS)
            poison_id = f"{game_id}-poison-{sent}"
            poison = {"type": "Move", "steps": steps}
            refused = await submit_until_decided(skald, game_id, seat, poison_id, poison, counts)
            assert (refused.status, refused.code) == ("refused", refusal_code(steps)), refused
            counts["poisons_refused"] += 1
        options = (await skald.reads.turn(game_id, seat)).legal_commands
        command_id = f"{game_id}-{sent}"
        command = bots[seat].choose(options)
        outcome = await submit_until_decided(skald, game_id, seat, command_id, command, counts)
        assert outcome.status == "applied", outcome
        counts["acknowledged"] += 1
        decided.put_nowait(command_id)
        sent += 1


async def submit_until_decided(
    skald: Skald,
    game_id: str,
    seat: int,
    command_id: str,
    command: dict[str, Any],
    counts: Counter[str],
) -> CommandOutcome:
    """Send a command until its outcome comes (the same id: the one outcome comes back)."""
    while True:
        await skald.commands.submit(game_id, seat, command_id, command, "r")
        outcome = await skald.commands.wait_outcome(game_id, command_id, WAIT_S)
        if outcome.status != "queued":
            return outcome
        counts["retried_after_timeout"] += 1


async def chaos(
    workers: Workers, decided: asyncio.Queue[str], rng: random.Random, counts: Counter[str]
) -> None:
    """SIGKILL a random worker after a random number (1-15) of decided commands, and replace it."""
    while True:
        for _ in range(rng.randint(1, 15)):
            await decided.get()
        workers.kill(rng.randrange(len(workers.processes)))
        workers.start(1)
        counts["worker_kills"] += 1


@pytest.mark.parametrize(
    ("games", "target"),
    [pytest.param(8, 24, id="short"), pytest.param(60, 60, id="long", marks=pytest.mark.slow)],
)
async def test_workers_killed_at_random_lose_nothing_and_apply_nothing_twice(
    skald: Skald, workers: Workers, games: int, target: int
) -> None:
    # Given games played by clients while workers are killed at random
    workers.start(3)
    game_ids = [
        (await skald.commands.create_game(POISONED, race_config(2, target))).game_id
        for _ in range(games)
    ]
    counts: Counter[str] = Counter()
    decided: asyncio.Queue[str] = asyncio.Queue()
    killer = asyncio.create_task(chaos(workers, decided, random.Random(2026), counts))
    await asyncio.gather(
        *(play(skald, game_id, 1000 * n, decided, counts) for n, game_id in enumerate(game_ids))
    )
    killer.cancel()

    history = skald.history
    for game_id in game_ids:
        # Then every command that reached the inbox applied at most once, in one span
        stored = await skald.store.read(game_id)
        events_of: Counter[str | None] = Counter(event.command_id for event in stored)
        inbox = await skald.store.inbox(game_id, NO_INBOX_ID, 100_000)
        assert len(inbox) == len({received.key for received in inbox})
        # And no game is frozen: its inbox is drained to its end
        head = await skald.store.head(game_id)
        assert head is not None and head.cursor == inbox[-1].inbox_id
        for received in inbox:
            outcome = await skald.commands.outcome(game_id, received.command_id, seat=received.seat)
            if outcome.status == "applied":
                span = (outcome.last_version or 0) - (outcome.first_version or 0) + 1
                assert events_of[received.key] == span
            else:
                assert events_of[received.key] == 0, outcome
        # And the record verifies: chain, replayed events, projections, seed and draws
        verification = await history.verify(game_id)
        assert verification.ok, [c for c in verification.checks if c.status == "failed"]
        assert verification.finished
        counts["commands_in_inboxes"] += len(inbox)
    assert counts["worker_kills"] >= 2
    assert counts["poisons_refused"] >= games  # about one move in five came with a poison
    record_figures(
        f"worker_chaos_{games}_games",
        games=games,
        lost=0,
        applied_twice=0,
        frozen_games=0,
        **dict(sorted(counts.items())),
    )
