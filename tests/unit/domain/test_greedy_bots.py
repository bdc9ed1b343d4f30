"""Each game's greedy bot (the stand-in for a seat whose player is gone).

Over a fixed set of seeds, one greedy seat against random seats: the greedy seat's mean
final score is above the random seats' mean and it wins more often than its share; every
move it picks is one of the seat's legal commands; the same seed plays the same game; and
its choice is the same when only what is hidden from its seat differs.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import msgspec
import pytest

from contracts.base import Command, Event
from domain.bots import RandomBot, SeatPicker
from domain.chance import Chance
from domain.engine import Game, decide, fold
from domain.games import get_game

SEEDS = range(8)
MAX_COMMANDS = 20_000
HIDDEN_CHECK_EVERY = 7  # greedy moves between two hidden-information checks

# Long enough games that points are scored (the example configs' short limits score little).
CONFIGS: dict[str, dict[str, Any]] = {
    "fjords": {},
    "looot": {},
    "landnam": {"max_rounds": 60},
    "fire-and-axe": {"round_limit": 40},
}


@dataclass
class Played:
    events: list[Event] = field(default_factory=list)
    greedy_moves: list[tuple[Any, Command]] = field(default_factory=list)  # (state, choice)
    scores: dict[int, int] = field(default_factory=dict)


def greedy_seed(seed: int, move: int) -> bytes:
    return hashlib.sha256(seed.to_bytes(8, "big") + move.to_bytes(8, "big")).digest()


def play(game: Game, config: Any, seed: int, greedy_seat: int, keep_states: bool) -> Played:
    """One seeded game: `greedy_seat` played by the game's greedy bot, the others random."""
    chance = Chance(seed.to_bytes(32, "big"))
    played = Played(events=game.setup(config, chance))
    state = fold(game, played.events)
    randoms = {seat: RandomBot(seed * 100 + seat) for seat in range(config.players)}
    picker = SeatPicker(seed)
    for move in range(MAX_COMMANDS):
        seats = game.to_act(state)
        if not seats:
            break
        seat = picker.pick(seats)
        if seat == greedy_seat:
            command = game.greedy_bot(greedy_seed(seed, move)).choose(game, state, seat)
            assert command is not None
            assert command in game.legal_commands(state, seat), command
            if keep_states and len(played.greedy_moves) % HIDDEN_CHECK_EVERY == 0:
                played.greedy_moves.append((game.copy_state(state), command))
            elif keep_states:
                played.greedy_moves.append((None, command))
        else:
            command = randoms[seat].choose(game, state, seat)
            assert command is not None
        events = decide(game, state, command, seat, chance)
        played.events += events
        for event in events:
            state = game.evolve(state, event)
    outcome = game.outcome(state)
    assert outcome is not None, "the game must end"
    played.scores = {score.seat: score.total for score in outcome.scores}
    return played


def config_of(name: str) -> tuple[Game, Any]:
    game = get_game(name)
    config = msgspec.structs.replace(game.example_configs()[0], **CONFIGS[name])
    return game, config


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_greedy_beats_random(name: str) -> None:
    game, config = config_of(name)
    greedy_scores: list[int] = []
    random_scores: list[int] = []
    wins = 0
    for seed in SEEDS:
        seat = seed % config.players
        scores = play(game, config, seed, seat, keep_states=False).scores
        others = [total for other, total in scores.items() if other != seat]
        greedy_scores.append(scores[seat])
        random_scores += others
        wins += scores[seat] > max(others)
    greedy_mean = sum(greedy_scores) / len(greedy_scores)
    random_mean = sum(random_scores) / len(random_scores)
    assert greedy_mean > random_mean, (greedy_scores, random_scores)
    assert wins > len(SEEDS) / config.players, (wins, greedy_scores, random_scores)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_same_seed_same_game(name: str) -> None:
    game, config = config_of(name)
    first = play(game, config, 3, 1, keep_states=False)
    again = play(game, config, 3, 1, keep_states=False)
    assert first.events == again.events
    assert first.scores == again.scores


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_choice_ignores_what_the_seat_cannot_see(name: str) -> None:
    """Re-deal what the seat cannot see: the bot (same seed) picks the same command."""
    game, config = config_of(name)
    seat = 1
    played = play(game, config, 5, seat, keep_states=True)
    checked = 0
    for move, (state, command) in enumerate(played.greedy_moves):
        if state is None:
            continue
        for probe in range(2):
            scrambled = game.scramble_hidden(state, seat, Chance(bytes([probe, move % 256]) * 8))
            again = game.greedy_bot(b"same seed").choose(game, scrambled, seat)
            assert again == game.greedy_bot(b"same seed").choose(game, state, seat), move
        checked += 1
        del command
    assert checked > 3
