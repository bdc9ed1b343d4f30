"""The service's own commands on a game's inbox (start, cancel) and what they append.

They travel the inbox like a seat's commands, under `SYSTEM_SEAT` and command ids a client
cannot choose (`sys:…`, with a colon), so they are ordered against the seats' commands and
recorded and audited like them. The game's rules never see them: they append service events
(contracts.stream) that the session follows and `evolve` skips.
"""

from __future__ import annotations

import msgspec

from contracts.stream import GameCancelled, LifecycleEvent, TableStarted
from service.core.ports.event_store import CommandStore
from service.core.ports.records import Accepted, ReceivedCommand
from service.core.ports.scheduling import DrainScheduler

SYSTEM_SEAT = -1  # the inbox seat of the service's own commands
START_ID = "sys:start"  # one start per game: the inbox refuses a second command with this id
CANCEL_ID = "sys:cancel"


class StartGame(msgspec.Struct, tag="start", tag_field="kind", frozen=True):
    """Start the game: every seat is held, by a player or by a bot for the whole game."""

    bots: list[int] = []


class CancelGame(msgspec.Struct, tag="cancel", tag_field="kind", frozen=True, omit_defaults=True):
    """Its creator cancels a game that has not started (or the workers, `by` empty, one that
    waited for its players longer than `open_game_ttl_s`: `reason` "expired")."""

    by: str
    reason: str = ""


class TimeOut(msgspec.Struct, tag="timeout", tag_field="kind", frozen=True):
    """A seat's deadline passed: the one set at version `since` (stale once the seat moved)."""

    seat: int
    since: int


def timeout_id(seat: int, since: int) -> str:
    """The command id of one deadline's timeout: one per deadline, so it never fires twice."""
    return f"sys:timeout:{seat}:{since}"


class Resign(msgspec.Struct, tag="resign", tag_field="kind", frozen=True):
    """A seat's player resigns (queued by the service for the seat's authenticated player)."""

    seat: int


def resign_id(seat: int) -> str:
    """The command id of a seat's resignation: once per seat."""
    return f"sys:resign:{seat}"


SystemCommand = StartGame | CancelGame | TimeOut | Resign
_decoder: msgspec.json.Decoder[SystemCommand] = msgspec.json.Decoder(SystemCommand)
_encoder = msgspec.json.Encoder()


class SystemRefused(Exception):
    """A system command that does not fit the game's phase (recorded as a refusal)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def encode_system(command: SystemCommand) -> bytes:
    """The inbox body of a system command."""
    return _encoder.encode(command)


def decode_system(body: bytes) -> SystemCommand:
    """A system command from its inbox body; SystemRefused when it does not decode."""
    try:
        return _decoder.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise SystemRefused("system.bad_command", f"bad system command: {exc}") from None


def decide_system(
    phase: str, seats: int, command: StartGame | CancelGame
) -> tuple[list[LifecycleEvent], bool]:
    """The events a start or cancel appends in `phase`, and whether it ends the game;
    SystemRefused when it does not apply."""
    if phase != "open":
        raise SystemRefused(
            "game.already_started" if phase == "started" else "game.cancelled",
            f"the game is {phase}: it can no longer be started or cancelled",
        )
    if isinstance(command, StartGame):
        bots = sorted(set(command.bots))
        if any(not 0 <= seat < seats for seat in bots):
            raise SystemRefused("seat.out_of_range", f"bot seats {bots} outside the game")
        return [TableStarted(bots)], False
    return [GameCancelled(command.by, command.reason)], True


async def queue_system(
    store: CommandStore,
    scheduler: DrainScheduler,
    game_id: str,
    command_id: str,
    command: SystemCommand,
) -> bool:
    """Queue the service's own command on a game's inbox; False when that id was queued
    before (a system command happens once per id)."""
    received = ReceivedCommand(SYSTEM_SEAT, command_id, command_id, encode_system(command))
    job_id = store.runner_job_for(game_id, scheduler.new_job_id())
    result = await store.submit(game_id, received, job_id, 0, 1000)
    if isinstance(result, Accepted):
        if result.start_runner:
            await scheduler.schedule(job_id)
        return True
    return False
