"""Per-game encoders and decoders, built once per game and reused.

Events are stored as MessagePack (compact; the hash chain covers these exact bytes), commands
as canonical JSON (what the audit shows "as received", in the Struct's field order).
"""

from __future__ import annotations

from typing import Any, Union

import msgspec

from contracts.base import Command, Event, GameConfig
from contracts.stream import META_EVENT_CLASSES
from domain.engine import Game
from domain.games import get_game
from service.shared.errors import InvalidInput

StreamEvent = Any  # a game's own Event, or a contracts.stream meta event

# Every int a command carries must fit a signed 64-bit integer: events and outcome records are
# stored as MessagePack, which cannot hold more, and a rule that echoes the value back (in an
# event or a refusal's details) must never make the outcome unstorable.
STORABLE_INT_MIN, STORABLE_INT_MAX = -(2**63), 2**63 - 1


def unstorable_int(value: Any, path: str = "$") -> str | None:
    """The path of the first int in a decoded JSON value that a stored record cannot hold."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return None if STORABLE_INT_MIN <= value <= STORABLE_INT_MAX else path
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list | tuple):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        found = unstorable_int(item, f"{path}.{key}" if isinstance(key, str) else f"{path}[{key}]")
        if found is not None:
            return found
    return None


class GameCodec:
    """How one game's configs, commands and events are decoded, validated and encoded."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._event_encoder = msgspec.msgpack.Encoder()
        stream_union: Any = Union[(game.event_type, *META_EVENT_CLASSES)]
        self._event_decoder: msgspec.msgpack.Decoder[Any] = msgspec.msgpack.Decoder(stream_union)
        self._command_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(game.command_type)
        self._json = msgspec.json.Encoder()

    def parse_config(self, config: dict[str, Any]) -> GameConfig:
        """The game's config Struct; InvalidInput with msgspec's reason when it does not fit."""
        try:
            parsed = msgspec.convert(config, self.game.config_type)
        except msgspec.ValidationError as exc:
            raise InvalidInput(
                "game.bad_config", f"bad config for {self.game.name}: {exc}"
            ) from None
        return parsed

    def parse_command(self, payload: Any) -> Command:
        """The game's command Struct from a decoded body; InvalidInput with msgspec's reason."""
        if not isinstance(payload, dict):
            raise InvalidInput("command.bad_payload", "a command is a JSON object")
        too_big = unstorable_int(payload)
        if too_big is not None:
            raise InvalidInput(
                "command.out_of_range",
                f"the integer at `{too_big}` is outside the range -2**63 .. 2**63-1",
                details={"field": too_big},
            )
        try:
            command: Command = msgspec.convert(payload, self.game.command_type)
        except msgspec.ValidationError as exc:
            raise InvalidInput("command.bad_payload", f"bad command: {exc}") from None
        return command

    def canonical(self, command: Command) -> bytes:
        """The canonical JSON of a command (field order of its Struct)."""
        return self._json.encode(command)

    def decode_command(self, body: bytes) -> Command:
        """A stored command body back as its Struct (ValidationError if the schema moved on)."""
        command: Command = self._command_decoder.decode(body)
        return command

    def encode_event(self, event: Event | Any) -> bytes:
        """The stored bytes of an event."""
        return self._event_encoder.encode(event)

    def decode_event(self, data: bytes) -> StreamEvent:
        """A stored event back as its Struct."""
        return self._event_decoder.decode(data)


class UnknownGame(InvalidInput):
    """No game of that name is registered in this process."""


_codecs: dict[str, GameCodec] = {}


def codec_for(game_name: str) -> GameCodec:
    """The codec of a registered game (rebuilt if the registry now holds another object)."""
    try:
        game = get_game(game_name)
    except KeyError as exc:
        raise UnknownGame("game.unknown", str(exc.args[0])) from None
    codec = _codecs.get(game_name)
    if codec is None or codec.game is not game:
        codec = _codecs[game_name] = GameCodec(game)
    return codec
