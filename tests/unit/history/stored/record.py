"""Records seeded bot games as the code it runs under plays them, for
`test_games_stored_before_revisions.py`: run it at the commit whose games are to be kept
(`PYTHONPATH=. python tests/unit/history/stored/record.py OUT GAME:N ...`).

Game N plays the game's example config N modulo their number, seed 1000 + N; seat s is a
random bot, or a greedy one when N + s is a multiple of 3 (seeded with the seed and s); when
several seats may act, a SeatPicker on the seed picks one. Written: msgpack, gzipped, of
each game's name, config, seed, bots, opening events and (seat, command, events) steps, the
events as the store keeps them (msgpack bytes).
"""

from __future__ import annotations

import gzip
import sys
from typing import Any

import msgspec

from domain.bots import RandomBot, SeatPicker
from domain.chance import Chance
from domain.engine import Bot, Game, decide, fold
from domain.games import get_game

FIRST_SEED = 1000
MAX_STEPS = 3000


def bot_kinds(number: int, players: int) -> list[str]:
    """Which bot plays each seat of game `number`."""
    return ["greedy" if (number + seat) % 3 == 0 else "random" for seat in range(players)]


def make_bot(game: Game, kind: str, seed: bytes, seat: int) -> Bot:
    """The seeded bot of one seat."""
    seat_seed = seed + bytes([seat])
    return game.greedy_bot(seat_seed) if kind == "greedy" else RandomBot(seat_seed)


def record(name: str, number: int) -> dict[str, Any]:
    """One seeded game played to its end (or MAX_STEPS commands)."""
    game = get_game(name)
    configs = game.example_configs()
    config = configs[number % len(configs)]
    seed = (FIRST_SEED + number).to_bytes(32, "big")
    chance = Chance(seed)
    kinds = bot_kinds(number, config.players)
    bots = [make_bot(game, kind, seed, seat) for seat, kind in enumerate(kinds)]
    picker = SeatPicker(seed)
    encode = msgspec.msgpack.encode
    opening = game.setup(config, chance)
    state = fold(game, opening)
    steps = []
    while len(steps) < MAX_STEPS and game.outcome(state) is None:
        to_act = game.to_act(state)
        seat = to_act[0] if len(to_act) == 1 else picker.pick(to_act)
        command = bots[seat].choose(game, state, seat)
        assert command is not None
        events = decide(game, state, command, seat, chance)
        steps.append((seat, msgspec.json.encode(command), [encode(e) for e in events]))
        state = fold(game, events, state)
    return {
        "game": name,
        "config": msgspec.to_builtins(config),
        "seed": seed,
        "bots": kinds,
        "opening": [encode(e) for e in opening],
        "steps": steps,
    }


def main(out: str, wanted: list[str]) -> None:
    """Record each GAME:N and write them to `out`."""
    games = []
    for item in wanted:
        name, number = item.rsplit(":", 1)
        games.append(record(name, int(number)))
    with open(out, "wb") as file:
        file.write(gzip.compress(msgspec.msgpack.encode(games), mtime=0))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
