"""The turn rules every game shares give the same refusal code in every game.

`domain.engine.decide` refuses a seat the game is not waiting for with `turn.not_yours` and any
command once the game is over with `game.finished`, whatever the game: each registered game and
the fake race game are played to the end at random with a fixed seed, and probed along the way.
"""

from __future__ import annotations

from typing import Any

import pytest

from contracts.base import Command
from domain.bots import RandomBot
from domain.chance import Chance
from domain.engine import Game, decide, fold
from domain.errors import IllegalCommand
from domain.games import game_names, get_game
from tests.fakes.race import RACE

SEED = 11
MAX_COMMANDS = 5000


def every_game() -> list[Any]:
    games: dict[str, Game] = {name: get_game(name) for name in game_names()}
    games.setdefault(RACE.name, RACE)
    return [pytest.param(game, id=name) for name, game in sorted(games.items())]


def refusal_code(game: Game, state: Any, command: Command, seat: int) -> str:
    with pytest.raises(IllegalCommand) as refused:
        decide(game, state, command, seat, Chance(b"unused"))
    return refused.value.code


@pytest.mark.parametrize("game", every_game())
def test_every_game_refuses_out_of_turn_and_after_the_end_with_the_shared_codes(
    game: Game,
) -> None:
    # Given a game of the first example config, played to its end by seeded random bots
    config = game.example_configs()[0]
    chance = Chance(SEED.to_bytes(32, "big"))
    state = fold(game, game.setup(config, chance))
    bot = RandomBot(SEED)
    last: Command | None = None
    for _ in range(MAX_COMMANDS):
        acting = game.to_act(state)
        if not acting:
            break
        command = bot.choose(game, state, acting[0])
        assert command is not None
        # Then along the way a seat not in `to_act` sending that very command is refused with
        # `turn.not_yours`, and so is a seat the game does not have; the state is unchanged
        before = game.copy_state(state)
        for seat in range(config.players + 1):
            if seat not in acting:
                assert refusal_code(game, state, command, seat) == "turn.not_yours"
        assert state == before
        state = fold(game, decide(game, state, command, acting[0], chance), state)
        last = command
    else:
        pytest.fail(f"{game.name} did not end within {MAX_COMMANDS} commands")

    # And after the end every seat is refused with `game.finished`
    assert last is not None and game.outcome(state) is not None
    for seat in range(config.players + 1):
        assert refusal_code(game, state, last, seat) == "game.finished"
