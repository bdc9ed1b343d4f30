"""One archived game: everything replay, audit, fairness and verify read, in one record.

The record is MessagePack compressed with zstd. It keeps the game's Redis data as stored (the
meta hash's fields, the events' bytes, the inbox, the commands' outcome records, the seed, the
seats' token hashes) minus what can be recomputed: the chain value of each event (only the
head's is kept; readers recompute the chain and check it ends there) and the pre-encoded views
(recomputed from the events when read), and the outcome record of each command that
produced events (`applied_outcomes` derives it from the inbox and the events; a record is
left out only when it equals the derived one). Those are most of a finished game's bytes and
do not compress (hashes) or compress poorly next to the events they derive from.
"""

from __future__ import annotations

import msgspec
import zstandard

from service.core.ports.command_keys import command_key
from service.core.ports.records import RECORD_ENCODER, CommandRecord
from service.shared.errors import GameDamaged

RECORD_FORMAT = 1
# zstd level 19: archiving happens once per game, off the request path, and reading back
# decompresses at the same speed whatever the level.
COMPRESSION_LEVEL = 19


class ArchivedEvent(msgspec.Struct, frozen=True, array_like=True):
    """An event's stored bytes and the command that caused it (its chain value is derived)."""

    data: bytes
    command_id: str | None = None


class ArchivedCommand(msgspec.Struct, frozen=True, array_like=True):
    """A command as received (an inbox entry)."""

    inbox_id: str
    seat: int
    command_id: str
    request_id: str
    body: bytes
    expected_version: int | None = None  # archived before it existed: None


class ArchivedGame(msgspec.Struct, frozen=True, array_like=True):
    """A finished game as it stood in Redis when archived."""

    format: int
    game_id: str
    meta: dict[str, bytes]  # the meta hash: fixed facts, head (v, h, cur, st), player names
    events: list[ArchivedEvent]
    inbox: list[ArchivedCommand]
    # The commands hash (command id -> outcome record) less the records `applied_outcomes`
    # derives.
    outcomes: dict[str, bytes]
    seed: bytes
    seats: dict[str, bytes]  # the seats hash: seat -> SHA-256 of its token

    @property
    def version(self) -> int:
        """The game's version (its last event's) when archived."""
        return len(self.events)

    @property
    def last_inbox_id(self) -> str:
        """The last command received, or "0-0" when none was."""
        return self.inbox[-1].inbox_id if self.inbox else "0-0"


def applied_outcomes(events: list[ArchivedEvent], inbox: list[ArchivedCommand]) -> dict[str, bytes]:
    """The outcome record, as stored, of each command that produced events: applied, by its
    seat, from its inbox entry, over the versions of its events. Keyed as the commands hash
    keys it: `<seat>:<id>`, or the bare id for a command decided before ids were per seat."""
    versions: dict[str, tuple[int, int]] = {}
    for version, event in enumerate(events, 1):
        if event.command_id is not None:
            first, _ = versions.get(event.command_id, (version, version))
            versions[event.command_id] = (first, version)
    derived = {}
    for command in inbox:
        key = command_key(command.seat, command.command_id)
        if key not in versions:
            key = command.command_id  # a bare tag names the first command with that id
            if key not in versions or key in derived:
                continue
        record = CommandRecord("applied", command.seat, command.inbox_id, *versions[key])
        derived[key] = RECORD_ENCODER.encode(record)
    return derived


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(ArchivedGame)


def encode_archive(game: ArchivedGame) -> bytes:
    """The record's bytes: MessagePack, zstd-compressed."""
    return zstandard.ZstdCompressor(level=COMPRESSION_LEVEL).compress(_encoder.encode(game))


def decode_archive(game_id: str, data: bytes) -> ArchivedGame:
    """A record back; GameDamaged when it does not decompress or decode, or is another game's."""
    try:
        game = _decoder.decode(zstandard.ZstdDecompressor().decompress(data))
    except (zstandard.ZstdError, msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise GameDamaged(game_id, f"the archived record is unreadable: {exc}") from None
    if game.game_id != game_id:
        raise GameDamaged(game_id, f"the archived record is game {game.game_id!r}'s")
    if game.format != RECORD_FORMAT:
        raise GameDamaged(game_id, f"the archived record has unknown format {game.format}")
    return game
