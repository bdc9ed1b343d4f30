"""Replay shows a game at any version, including those between the events of one command.

Such a state is one no command ever stops at, yet `/replay?at=N` and audit draw it: every game
must answer `to_act`, `view` (every viewer) and `legal_commands` (every seat) there without
failing. Each registered game is played by seeded random bots and folded event by event.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.bots import RandomBot, SeatPicker
from domain.chance import Chance
from domain.engine import Game, decide, fold
from domain.games import game_names, get_game

SEED = 5
GAMES_PER_CONFIG = 2
MAX_COMMANDS = 3000


def every_game() -> list[Any]:
    return [pytest.param(get_game(name), id=name) for name in game_names()]


def probe(game: Game, state: Any, players: int) -> None:
    """Every read replay and audit make of a state."""
    game.to_act(state)
    for viewer in [None, *range(players)]:
        game.view(state, viewer)
    for seat in range(players):
        game.legal_commands(state, seat)


@pytest.mark.parametrize("game", every_game())
def test_every_version_of_a_game_can_be_viewed(game: Game) -> None:
    for config in game.example_configs()[:2]:
        for n in range(GAMES_PER_CONFIG):
            # Given a game played by seeded random bots
            seed = SEED * 1000 + n
            chance = Chance(seed.to_bytes(32, "big"))
            state = fold(game, game.setup(config, chance))
            bots = [RandomBot(seed + seat) for seat in range(config.players)]
            picker = SeatPicker(seed.to_bytes(8, "big"))
            for _ in range(MAX_COMMANDS):
                acting = game.to_act(state)
                if not acting:
                    break
                seat = picker.pick(acting)
                command = bots[seat].choose(game, state, seat)
                assert command is not None
                produced = decide(game, state, command, seat, chance)
                # When it is folded one event at a time, then every version in between reads
                between = game.copy_state(state)
                for event in produced[:-1]:
                    between = game.evolve(between, event)
                    probe(game, between, config.players)
                state = fold(game, produced, state)
