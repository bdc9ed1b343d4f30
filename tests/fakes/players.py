"""Seeded players for whole-game tests: one plays in-process, one through the service.

Both pick like domain.bots.RandomBot (draw k of a player's seed picks among the legal
commands, in the rules' order), and pick the seat that acts among several in `to_act` with
domain.bots.SeatPicker, so the same seeds play the same game either way: in-process from the
state, through the service from the seat's projected turn.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from contracts.base import Event, GameConfig
from contracts.stream import META_EVENT_TYPES
from domain.bots import RandomBot, SeatPicker
from domain.chance import Chance, draw_below
from domain.engine import Game, decide, fold
from service.facade.skald import Skald


def play_in_process(
    game: Game, config: GameConfig, seed: bytes, bot_seeds: list[int]
) -> tuple[list[Event], Any]:
    """A whole game played without the service: its events and final state."""
    chance = Chance(seed)
    events = game.setup(config, chance)
    state = fold(game, events)
    bots = [RandomBot(bot_seed) for bot_seed in bot_seeds]
    picker = SeatPicker(seat_picker_seed(bot_seeds))
    while game.outcome(state) is None:
        seat = picker.pick(game.to_act(state))
        command = bots[seat].choose(game, state, seat)
        assert command is not None, f"seat {seat} must act but has no legal command"
        produced = decide(game, state, command, seat, chance)
        state = fold(game, produced, state)
        events += produced
    return events, state


def seat_picker_seed(bot_seeds: list[int]) -> bytes:
    """The seed of the pick among several seats in `to_act`, from the players' seeds."""
    return ("seats:" + ",".join(map(str, bot_seeds))).encode()


class ClientBot:
    """RandomBot's choice made from the legal commands the service offers a seat."""

    def __init__(self, seed: int) -> None:
        self._seed = seed.to_bytes(16, "big", signed=True)
        self._picks = 0

    def choose(self, options: list[dict[str, Any]]) -> dict[str, Any]:
        """The pick among `options`."""
        index = draw_below(self._seed, self._picks, len(options))
        self._picks += 1
        return options[index]


async def play_through_service(
    skald: Skald,
    game_id: str,
    bot_seeds: list[int],
    settle: Callable[[str], Awaitable[Any]],
    prefix: str = "move",
) -> int:
    """Play a created game to its end through the facade; `settle(command_id)` waits until
    the command is decided. Returns the number of commands sent."""
    bots = [ClientBot(bot_seed) for bot_seed in bot_seeds]
    picker = SeatPicker(seat_picker_seed(bot_seeds))
    sent = 0
    while not (public := await skald.reads.turn(game_id, None)).finished:
        seat = picker.pick(public.to_act)
        options = (await skald.reads.turn(game_id, seat)).legal_commands
        command_id = f"{prefix}-{sent}"
        await skald.commands.submit(
            game_id, seat, command_id, bots[seat].choose(options), f"r-{sent}"
        )
        outcome = await settle(command_id)
        assert getattr(outcome, "status", "applied") == "applied", outcome
        sent += 1
    return sent


def stream_events(events: list[Any]) -> list[Any]:
    """The game's own events of a stream (without the service's own: contracts.stream)."""
    return [e for e in events if type(e).__name__ not in META_EVENT_TYPES]


def builtins(events: list[Any]) -> list[Any]:
    """Events as plain data, for comparisons across codecs."""
    return [msgspec.to_builtins(e) for e in events]
