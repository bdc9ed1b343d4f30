"""Opening a game: the GameCreated event with the seed commitment, then the game's setup."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from contracts.stream import Clock, ClockSet, GameCreated, GameOpened, SeedRevealed
from domain.chance import Chance, commitment
from domain.engine import fold
from domain.errors import IllegalCommand
from domain.table.clocks import first_clocks, new_deadlines, next_clocks
from service.core.codec import GameCodec
from service.core.pipeline.chain import genesis, link
from service.core.ports.records import GameMeta, NewEvent
from service.shared.errors import InvalidInput


@dataclass(frozen=True)
class OpenedGame:
    """A new game ready to store: its meta, its first events and the state they give."""

    meta: GameMeta
    events: list[NewEvent]
    state: Any
    finished: bool
    seed_sha256: str
    deadlines: list[tuple[int, int, int]]  # (seat, since, ms): the first turn's, if timed


def open_game(
    codec: GameCodec,
    game_id: str,
    config: dict[str, Any],
    seed: bytes,
    created_at: str,
    creator: str | None = None,
    clock: Clock | None = None,
    now_ms: int = 0,
    rated: bool = True,
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
        rated=rated,
    )
    opened: list[Any] = [] if creator is None else [GameOpened(creator)]
    timed: list[Any] = [] if clock is None else [ClockSet(clock)]
    stream: list[Any] = [created, *opened, *timed, *setup_events]
    finished = game.outcome(state) is not None
    deadlines: list[tuple[int, int, int]] = []
    if finished:
        stream.append(SeedRevealed(seed.hex()))
    elif clock is not None and creator is None:  # a guest game: its first turn is timed now
        since = len(stream) + 1
        clocks = next_clocks(
            clock,
            first_clocks(clock, parsed.players),
            sorted(set(game.to_act(state))),
            None,
            moved_itself=False,
            since=since,
            now_ms=now_ms,
        )
        if clocks is not None:
            stream.append(clocks)
            deadlines = [(seat, since, at) for seat, at in new_deadlines(clocks, since)]
    chain = genesis(game_id)
    events = []
    for event in stream:
        data = codec.encode_event(event)
        chain = link(chain, data)
        events.append(NewEvent(data, chain))
    meta = GameMeta(game.name, game.rules_version, parsed.players, created_at)
    return OpenedGame(meta, events, state, finished, created.seed_sha256, deadlines)
