"""Builders shared by the core unit tests."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.chance import Chance
from domain.engine import fold
from service.core.codec import codec_for
from service.core.pipeline.create import OpenedGame, open_game
from service.core.ports.event_store import EventStore
from service.core.ports.records import CommandRecord, ReceivedCommand
from tests.fakes.race import RACE, RaceConfig

SEED = bytes(range(32))
CREATED_AT = "2024-05-01T12:00:00+00:00"


async def stored_race(
    store: EventStore, game_id: str = "race1", players: int = 2, target: int = 12
) -> OpenedGame:
    """A race game created in `store` with the fixed seed."""
    config = msgspec.to_builtins(RaceConfig(players=players, target=target))
    opened = open_game(codec_for("race"), game_id, config, SEED, CREATED_AT)
    await store.create(game_id, opened.meta, SEED, opened.events, opened.finished)
    return opened


def race_state(players: int = 2, target: int = 12, seed: bytes = SEED) -> Any:
    """The race's state after setup, played in-process."""
    return fold(RACE, RACE.setup(RaceConfig(players=players, target=target), Chance(seed)))


def body(command: dict[str, Any]) -> bytes:
    """A command's canonical JSON, as submit stores it."""
    codec = codec_for("race")
    return codec.canonical(codec.parse_command(command))


async def queue(
    store: EventStore, game_id: str, command_id: str, seat: int, command: dict[str, Any]
) -> None:
    """Submit a command straight to the store (no rate limit)."""
    received = ReceivedCommand(seat, command_id, f"req-{command_id}", body(command))
    await store.submit(game_id, received, f"job-{command_id}", 0, 1000)


async def record_of(store: EventStore, game_id: str, command_id: str) -> CommandRecord | None:
    """The record of the one command with this id, whichever seat sent it (the tests here give
    each command a fresh id; command ids are per seat in the store)."""
    found = [
        record
        for seat in range(-1, 8)
        if (record := await store.command(game_id, seat, command_id)) is not None
    ]
    assert len(found) <= 1, f"several seats sent {command_id!r}"
    return found[0] if found else None
