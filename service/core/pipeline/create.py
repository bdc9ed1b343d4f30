"""Opening a game: the GameCreated event with the seed commitment, then the game's setup."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from contracts.stream import GameCreated, GameOpened, SeedRevealed
from domain.chance import Chance, commitment
from domain.engine import fold
from domain.errors import IllegalCommand
from service.adapters.store.records import GameMeta, NewEvent
from service.core.codec import GameCodec
from service.core.pipeline.chain import genesis, link
from service.shared.errors import InvalidInput


@dataclass(frozen=True)
class OpenedGame:
    """A new game ready to store: its meta, its first events and the state they give."""

    meta: GameMeta
    events: list[NewEvent]
    state: Any
    finished: bool
    seed_sha256: str


def open_game(
    codec: GameCodec,
    game_id: str,
    config: dict[str, Any],
    seed: bytes,
    created_at: str,
    creator: str | None = None,
) -> OpenedGame:
    """Decode the config, run the game's setup, and chain the opening events (a game a player
    creates opens with GameOpened: it waits for its players before any command applies)."""
    game = codec.game
    parsed = codec.parse_config(config)
    try:
        setup_events = game.setup(parsed, Chance(seed))
    except (ValueError, IllegalCommand) as exc:
        # Rules refuse options they do not support (player count, variants not yet built).
        code = exc.code if isinstance(exc, IllegalCommand) else "game.bad_config"
        raise InvalidInput(code, f"bad config for {game.name}: {exc}") from None
    state = fold(game, setup_events)
    created = GameCreated(
        game=game.name,
        rules_version=game.rules_version,
        config=msgspec.to_builtins(parsed),
        seed_sha256=commitment(seed),
        created_at=created_at,
    )
    opened: list[Any] = [] if creator is None else [GameOpened(creator)]
    stream: list[Any] = [created, *opened, *setup_events]
    finished = game.outcome(state) is not None
    if finished:
        stream.append(SeedRevealed(seed.hex()))
    chain = genesis(game_id)
    events = []
    for event in stream:
        data = codec.encode_event(event)
        chain = link(chain, data)
        events.append(NewEvent(data, chain))
    meta = GameMeta(game.name, game.rules_version, parsed.players, created_at)
    return OpenedGame(meta, events, state, finished, created.seed_sha256)
