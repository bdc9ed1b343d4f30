"""Poison commands on the real Redis with real workers: 20 games each fed every kind of poison
(rules that raise, events and refusals MessagePack cannot hold, views that fail) freeze no
game and hold no capacity: healthy games' moves are applied as in a baseline run without
poison, and every poisoned game moves on to the moves sent after its poisons.

No timing is asserted: a move counts when its outcome comes within `WAIT_S` (a bound far above
a healthy round trip), and the poisoned run must apply every move the baseline applied.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator

import msgspec
import pytest

from domain.games import unregister
from service.core.ports.records import NO_INBOX_ID
from service.facade.skald import Skald
from service.shared.settings import Settings
from tests.fakes.poison import NAME, POISONS, refusal_code, register
from tests.fakes.race import race_config
from tests.integration.conftest import Workers

from .reliability.figures import record_figures

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

WAIT_S = 10.0  # a bound on one move's outcome, far above a healthy round trip
POISONED_GAMES = 20
HEALTHY_GAMES = 6
MOVES = 4  # per healthy game and phase


@pytest.fixture
def poison_settings(core_settings: Settings) -> Iterator[Settings]:
    """The test's settings with the poisoned race installed in the workers and here."""
    register()
    yield msgspec.structs.replace(core_settings, plugins="tests.fakes.poison")
    unregister(NAME)


async def play_moves(skald: Skald, game_id: str, phase: str, counts: Counter[str]) -> None:
    """`MOVES` legal moves, one after the other, each counted if applied within `WAIT_S`."""
    for n in range(MOVES):
        seat = (await skald.reads.turn(game_id, None)).to_act[0]
        command_id = f"{phase}-{n}"
        await skald.commands.submit(game_id, seat, command_id, {"type": "Move", "steps": 1}, "r")
        outcome = await skald.commands.wait_outcome(game_id, command_id, WAIT_S)
        counts[f"{phase}_applied" if outcome.status == "applied" else f"{phase}_late"] += 1


async def poison_then_move(skald: Skald, game_id: str, counts: Counter[str]) -> None:
    """Every poison, then a legal move, all sent by the seat to act without waiting."""
    seat = (await skald.reads.turn(game_id, None)).to_act[0]
    for steps in POISONS:
        await skald.commands.submit(
            game_id, seat, f"poison-{steps}", {"type": "Move", "steps": steps}, "r"
        )
    await skald.commands.submit(game_id, seat, "after", {"type": "Move", "steps": 1}, "r")
    outcome = await skald.commands.wait_outcome(game_id, "after", WAIT_S)
    counts["moves_after_poison_applied" if outcome.status == "applied" else "frozen"] += 1


async def test_poisoned_games_freeze_nothing_and_hold_no_capacity(
    skald: Skald, poison_settings: Settings
) -> None:
    workers = Workers(poison_settings)
    workers.start(2)
    try:
        healthy = [
            (await skald.commands.create_game("race", race_config(2, 1000))).game_id
            for _ in range(HEALTHY_GAMES)
        ]
        poisoned = [
            (await skald.commands.create_game(NAME, race_config(2, 1000))).game_id
            for _ in range(POISONED_GAMES)
        ]
        counts: Counter[str] = Counter()

        # Given a baseline: the healthy games' moves with no poison about
        await asyncio.gather(*(play_moves(skald, g, "baseline", counts) for g in healthy))

        # When 20 games are fed every poison while the healthy games play on
        await asyncio.gather(
            *(poison_then_move(skald, g, counts) for g in poisoned),
            *(play_moves(skald, g, "poisoned", counts) for g in healthy),
        )
    finally:
        workers.stop()

    # Then the healthy games applied every move, as in the baseline
    assert counts["baseline_applied"] == HEALTHY_GAMES * MOVES
    assert counts["poisoned_applied"] == counts["baseline_applied"]
    # And every poisoned game moved on past its poisons, each refused with its code
    assert counts["moves_after_poison_applied"] == POISONED_GAMES
    store = skald.store
    refusals: Counter[str] = Counter()
    for game_id in poisoned:
        for steps in POISONS:
            outcome = await skald.commands.outcome(game_id, f"poison-{steps}")
            assert (outcome.status, outcome.code) == ("refused", refusal_code(steps))
            refusals[outcome.code or ""] += 1
    # And no inbox holds a queued command, and no lease is left behind
    for game_id in healthy + poisoned:
        head = await store.head(game_id)
        assert head is not None and await store.inbox(game_id, head.cursor, 1) == []
        assert not await store.lease_held(game_id)
        inbox = await store.inbox(game_id, NO_INBOX_ID, 1000)
        for received in inbox:
            assert (await skald.commands.outcome(game_id, received.command_id)).status != "queued"
    record_figures(
        "poison_commands",
        poisoned_games=POISONED_GAMES,
        poisons_per_game=len(POISONS),
        healthy_games=HEALTHY_GAMES,
        bound_s=WAIT_S,
        **dict(sorted({"frozen": 0, **counts}.items())),
        **{f"refused_{code}": n for code, n in sorted(refusals.items())},
    )
