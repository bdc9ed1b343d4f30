"""A game's history decoded: its events, its commands placed in the stream, states on demand.

Versions count every event from 1 (GameCreated). Only the game's own events are folded with
`domain.engine.fold`; GameCreated and SeedRevealed are the service's. A game created under
rules this code does not implement is refused before any of its events is decoded: under other
rules they may not even decode, and if they did they could fold into another game.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec

from contracts.history import CommandStatus, Refusal
from contracts.stream import GameCreated, SeedRevealed
from domain.engine import Game, fold
from domain.table import is_service_event
from service.core.codec import GameCodec, UnknownGame, codec_for
from service.core.ports.command_keys import command_key
from service.core.ports.records import (
    CommandRecord,
    GameMeta,
    Head,
    ReceivedCommand,
    StoredEvent,
)
from service.history.history_errors import CorruptHistory, RulesVersionMismatch
from service.history.loading import StoredCommand, StoredGame
from service.shared.errors import Conflict

_created_decoder = msgspec.msgpack.Decoder(GameCreated)

# What a decided command without events shows when the store lost its outcome record.
MISSING_OUTCOME = Refusal(
    "history.outcome_missing", "the store holds no outcome record for this command"
)


@dataclass(frozen=True)
class Step:
    """One received command and what became of it, placed in the stream.

    `version_before` is the stream's version when the command was decided (its head at the
    snapshot for a command still queued); an applied command's events are `first_version` to
    `last_version` (None when it produced none).
    """

    received: ReceivedCommand
    status: CommandStatus
    version_before: int
    first_version: int | None = None
    last_version: int | None = None
    refusal: Refusal | None = None

    @property
    def command_id(self) -> str:
        """The client's id of the command."""
        return self.received.command_id

    @property
    def seat(self) -> int:
        """The seat that sent the command."""
        return self.received.seat

    @property
    def key(self) -> str:
        """The command's key in the game: command ids are per seat (`<seat>:<id>`)."""
        return self.received.key


class GameHistory:
    """One game's decoded stream and commands, read at one head (see `decode_history`)."""

    def __init__(
        self, stored: StoredGame, created: GameCreated, codec: GameCodec, events: list[Any]
    ) -> None:
        self.game_id = stored.game_id
        self.meta: GameMeta = stored.meta
        self.head: Head = stored.head
        self.stored: list[StoredEvent] = stored.events
        self.created = created
        self.codec = codec
        self.events = events  # decoded, events[v - 1] is version v
        self.steps = _place_steps(stored, events)
        self._by_command = {step.key: step for step in self.steps}

    @property
    def game(self) -> Game:
        """The game's rules."""
        return self.codec.game

    @property
    def last_version(self) -> int:
        """The version of the stream's last event."""
        return len(self.events)

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self.head.finished

    @property
    def seed_revealed(self) -> SeedRevealed | None:
        """The SeedRevealed event that closes a finished game's stream, if there is one."""
        last = self.events[-1] if self.events else None
        return last if isinstance(last, SeedRevealed) else None

    def event(self, version: int) -> Any:
        """The decoded event at `version`."""
        return self.events[version - 1]

    def game_events(self, first: int, last: int) -> list[tuple[int, Any]]:
        """(version, event) of the game's own events from `first` to `last`, inclusive."""
        return [
            (version, self.events[version - 1])
            for version in range(max(first, 1), min(last, self.last_version) + 1)
            if not is_service_event(self.events[version - 1])
        ]

    def state_at(self, version: int) -> Any:
        """A fresh state folded from the game's events up to `version` (None before setup)."""
        return fold(self.game, (event for _, event in self.game_events(1, version)))

    def states(self) -> Iterator[tuple[int, Any]]:
        """(version, state) at every version, in order. The state is ONE object advanced in
        place: copy it (`game.copy_state`) to keep it past the next step."""
        state = None
        evolve = self.game.evolve
        for version, event in enumerate(self.events, 1):
            if not is_service_event(event):
                state = evolve(state, event)
            yield version, state

    def step_at(self, version: int) -> Step | None:
        """The applied command whose events include `version`, or None (opening, seed)."""
        for step in self.steps:
            first, last = step.first_version, step.last_version
            if first is not None and last is not None and first <= version <= last:
                return step
        return None

    def step_of(self, seat: int, command_id: str) -> Step | None:
        """The step of a seat's command id, or None when the seat never sent it (command ids
        are per seat: two seats' commands may share an id)."""
        return self._by_command.get(command_key(seat, command_id))

    def steps_named(self, command_id: str) -> list[Step]:
        """Every seat's command with this id (operators name a command by its id alone)."""
        return [step for step in self.steps if step.command_id == command_id]

    def decided_steps(self, up_to: int) -> list[Step]:
        """Commands decided by `up_to`: applied ones whose first event is at most `up_to`,
        refused ones decided while the stream stood at `up_to` or before."""
        chosen = []
        for step in self.steps:
            if step.status == "queued":
                continue
            if step.first_version is not None:
                if step.first_version <= up_to:
                    chosen.append(step)
            elif step.version_before <= up_to:
                chosen.append(step)
        return chosen


def _game_codec(game_id: str, created: GameCreated) -> GameCodec:
    try:
        codec = codec_for(created.game)
    except UnknownGame:
        raise Conflict(
            "game.unknown",
            f"game {game_id!r} is a game of {created.game!r}, which this service does not "
            "implement",
            details={"game": created.game},
        ) from None
    if codec.game.rules_version != created.rules_version:
        raise RulesVersionMismatch(
            game_id, created.game, created.rules_version, codec.game.rules_version
        )
    return codec


def created_event(stored: StoredGame) -> GameCreated:
    """The stream's first event, GameCreated; CorruptHistory when it is not one."""
    if not stored.events:
        raise CorruptHistory(stored.game_id, 1, "the stream is empty")
    try:
        return _created_decoder.decode(stored.events[0].data)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise CorruptHistory(stored.game_id, 1, f"not a GameCreated event: {exc}") from None


def decode_history(stored: StoredGame) -> GameHistory:
    """Decode a stored game; RulesVersionMismatch under rules this code does not implement,
    CorruptHistory (naming the version) for an event that cannot be read or is misplaced."""
    created = created_event(stored)
    codec = _game_codec(stored.game_id, created)
    events: list[Any] = []
    last = len(stored.events)
    for expected_version, event in enumerate(stored.events, 1):
        if event.version != expected_version:
            raise CorruptHistory(stored.game_id, expected_version, "the stream has a gap here")
        try:
            decoded = codec.decode_event(event.data)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise CorruptHistory(
                stored.game_id, event.version, f"unreadable event: {exc}"
            ) from None
        if isinstance(decoded, GameCreated) and event.version != 1:
            raise CorruptHistory(stored.game_id, event.version, "a second GameCreated event")
        if isinstance(decoded, SeedRevealed) and event.version != last:
            raise CorruptHistory(stored.game_id, event.version, "SeedRevealed before the end")
        events.append(decoded)
    return GameHistory(stored, created, codec, events)


def _refusal(record: CommandRecord | None) -> Refusal:
    if record is None or record.status != "refused":
        return MISSING_OUTCOME
    return Refusal(record.code or "command.refused", record.message or "", record.details)


def _place_steps(stored: StoredGame, events: list[Any]) -> list[Step]:
    """Each inbox command with its status and versions; the events say where applied ones went."""
    spans: dict[str, tuple[int, int]] = {}
    for event in stored.events:
        if event.command_id is not None:
            first, _ = spans.get(event.command_id, (event.version, event.version))
            spans[event.command_id] = (first, event.version)
    # Before any command: GameCreated and the setup events (and a seed, for a game over at once).
    version = next((e.version - 1 for e in stored.events if e.command_id is not None), len(events))
    steps = []
    for command in stored.commands:
        step = _step(command, spans, version, stored.head.version)
        if step.last_version is not None:
            version = step.last_version
            if version < len(events) and isinstance(events[version], SeedRevealed):
                version += 1  # the seed is revealed right after the winning command
        steps.append(step)
    return steps


def _step(
    command: StoredCommand, spans: dict[str, tuple[int, int]], version: int, head: int
) -> Step:
    received = command.received
    if not command.decided:
        return Step(received, "queued", head)
    span = spans.get(received.key)
    if span is not None:
        return Step(received, "applied", span[0] - 1, span[0], span[1])
    record = command.record
    if record is not None and record.status == "applied":
        return Step(received, "applied", version)  # the rules accepted it with no event
    return Step(received, "refused", version, refusal=_refusal(record))
