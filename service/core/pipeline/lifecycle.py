"""The service's own commands (contracts.system) on a game's inbox: their body, and queueing
one for the table engine (domain.table) to decide in order with the seats' commands."""

from __future__ import annotations

import msgspec

from contracts.system import SystemCommand
from domain.table import SYSTEM_SEAT, Undecodable
from service.core.ports.event_store import CommandStore
from service.core.ports.records import Accepted, ReceivedCommand
from service.core.ports.scheduling import DrainScheduler

_decoder: msgspec.json.Decoder[SystemCommand] = msgspec.json.Decoder(SystemCommand)
_encoder = msgspec.json.Encoder()


def encode_system(command: SystemCommand) -> bytes:
    """The inbox body of a system command."""
    return _encoder.encode(command)


def decode_system(body: bytes) -> SystemCommand | Undecodable:
    """A system command from its inbox body, or why it does not decode."""
    try:
        return _decoder.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        return Undecodable(f"bad system command: {exc}")


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
