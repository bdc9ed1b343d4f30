"""Seeded games driven through a real EventStore and the real drain, recording what live play saw.

`play_through_store` creates a game with a fixed seed, then has RandomBot seats send commands
into the store's inbox and runs the worker's Drainer after each one, as production does. Every
few moves it also sends a command the rules must refuse (an illegal candidate, or a legal
command from a seat whose turn it is not), so refusals are part of the record.

Alongside, the same game is played in-process from the same seed: the state after every
version is what live play saw, independently of the store; and after each drain the
projections the worker stored are kept, as clients saw them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import msgspec

from contracts.base import Command, GameConfig
from domain.bots import RandomBot
from domain.chance import Chance, draw_below
from domain.engine import Game, decide
from service.adapters.store.redis_store import RedisEventStore
from service.adapters.store.side import Seats
from service.core.codec import GameCodec, codec_for
from service.core.pipeline.create import open_game
from service.core.pipeline.drain import Drainer
from service.core.pipeline.session import SessionCache
from service.core.ports.event_store import EventStore
from service.core.ports.records import ReceivedCommand
from service.core.projections import encode_views
from tests.fakes.rounds import drain_one

CREATED_AT = "2024-05-01T12:00:00+00:00"


def seed_of(number: int) -> bytes:
    """A fixed 32-byte seed."""
    return number.to_bytes(32, "big")


@dataclass
class Sent:
    """A command the test sent, and whether the rules were expected to refuse it."""

    command_id: str
    seat: int
    command: Command
    refused: bool
    version_before: int = 0  # the stream's version when it was sent


@dataclass
class PlayedGame:
    """A game played through a store, with what live play saw."""

    game_id: str
    game: Game
    config: GameConfig
    seed: bytes
    # The in-process state after every version (None at version 1: GameCreated alone).
    states: dict[int, Any] = field(default_factory=dict)
    # The projections the store held right after each drain, by the version they were at.
    projections: dict[int, dict[str, bytes]] = field(default_factory=dict)
    sent: list[Sent] = field(default_factory=list)
    finished: bool = False

    @property
    def last_version(self) -> int:
        """The stream's last version."""
        return max(self.states)

    def live_state(self, version: int) -> Any:
        """What live play's state was at `version`."""
        return self.states[version]


class StoreDriver:
    """Sends commands to a store's inbox and drains them with the worker's code."""

    def __init__(self, store: EventStore, game_name: str) -> None:
        self.store = store
        self.codec = codec_for(game_name)
        self.drainer = Drainer(store, None, None, None, SessionCache(8), 64, 30_000)

    async def send(self, game_id: str, sent: Sent) -> None:
        """Submit one command (no rate limit) and drain until the inbox is empty."""
        body = self.codec.canonical(sent.command)
        received = ReceivedCommand(sent.seat, sent.command_id, f"req-{sent.command_id}", body)
        await self.store.submit(game_id, received, f"job-{sent.command_id}", 0, 1000)
        while True:
            report = await drain_one(self.drainer, game_id)
            if not report.put_back:
                break

    async def projections(self, game_id: str, names: list[str]) -> tuple[int, dict[str, bytes]]:
        """The stored projections and their version."""
        fields = {}
        version = -1
        for name in names:
            stored = await self.store.view(game_id, name)
            assert stored is not None, name
            version, fields[name] = stored
        return version, fields


def _refusable(game: Game, state: Any, seat: int, players: int, pick: int) -> Sent | None:
    """A command the rules must refuse now: an illegal candidate, or another seat's move."""
    legal = set(game.legal_commands(state, seat))
    illegal = [c for c in game.candidate_commands(state, seat) if c not in legal]
    if illegal:
        return Sent("", seat, illegal[pick % len(illegal)], True)
    waiting = [s for s in range(players) if s not in game.to_act(state)]
    if waiting and legal:
        return Sent("", waiting[0], next(iter(game.legal_commands(state, seat))), True)
    return None


async def play_through_store(
    store: EventStore,
    game: Game,
    config: GameConfig,
    seed: bytes,
    game_id: str,
    *,
    stop_after: int | None = None,
    refuse_every: int = 7,
    opened_by: GameCodec | None = None,
) -> PlayedGame:
    """Play a seeded game through `store` (to the end, or `stop_after` accepted commands);
    `opened_by`: the codec that creates it (the registered game's by default)."""
    codec = opened_by if opened_by is not None else codec_for(game.name)
    opened = open_game(codec, game_id, msgspec.to_builtins(config), seed, CREATED_AT)
    version = len(opened.events)
    views = encode_views(codec, game_id, version, opened.state, opened.meta.seats)
    names = list(views)
    await store.create(game_id, opened.meta, seed, opened.events, opened.finished, views)
    if isinstance(store, RedisEventStore) and not opened.finished:
        # Players take their seats before they send commands, as through the API.
        seats = Seats(store.redis, store.prefix, store.scripts)
        for seat in range(opened.meta.seats):
            await seats.take(game_id, seat, hashlib.sha256(f"token {seat}".encode()).digest(), "")
    driver = StoreDriver(store, game.name)

    played = PlayedGame(game_id, game, config, seed)
    chance = Chance(seed)
    state = None
    played.states[1] = None
    for number, event in enumerate(game.setup(config, chance), 2):
        state = game.evolve(state, event)
        played.states[number] = game.copy_state(state)
    played.projections[version] = (await driver.projections(game_id, names))[1]
    bots = [RandomBot(seed + bytes([seat])) for seat in range(config.players)]
    accepted = 0
    while game.outcome(state) is None and (stop_after is None or accepted < stop_after):
        seat = game.to_act(state)[0]
        if accepted % refuse_every == refuse_every - 1:
            pick = draw_below(seed, 1_000_000 + accepted, 1_000)
            refusal = _refusable(game, state, seat, config.players, pick)
            if refusal is not None:
                refusal.command_id = f"refused-{accepted}"
                refusal.version_before = version
                played.sent.append(refusal)
                await driver.send(game_id, refusal)
        command = bots[seat].choose(game, state, seat)
        assert command is not None
        sent = Sent(f"move-{accepted}", seat, command, False, version)
        played.sent.append(sent)
        await driver.send(game_id, sent)
        for event in decide(game, state, command, seat, chance):
            state = game.evolve(state, event)
            version += 1
            played.states[version] = game.copy_state(state)
        if game.outcome(state) is not None:
            version += 1  # SeedRevealed: the state does not change
            played.states[version] = game.copy_state(state)
            played.finished = True
        stored_version, fields = await driver.projections(game_id, names)
        assert stored_version == version, (stored_version, version)
        played.projections[version] = fields
        accepted += 1
    return played
