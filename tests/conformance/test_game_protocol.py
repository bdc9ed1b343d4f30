"""Every registered game, in every example config, obeys the game protocol.

Seeded random games are played to the end with RandomBot seats. Along the way:
- the events survive a JSON round trip and fold (at once, or one by one) to exactly the live
  state;
- `decide`, `legal_commands`, `view` and `outcome` never change the state;
- every command the bot picks from `legal_commands` is accepted, a sample of the
  `candidate_commands` that `legal_commands` omits is refused, and so is a legal command sent
  by a seat whose turn it is not;
- a seat's view (and the public view) does not change when only hidden information does;
- replaying the recorded commands with the same seed re-derives exactly the same events;
- `visible_event` shows each event as an event of the same kind, or hides it;
- the game ends, nobody can act at the end, and the outcome is consistent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import msgspec
import pytest

from contracts.base import Command, Event
from domain.bots import RandomBot
from domain.chance import Chance, draw_below
from domain.engine import Game, decide, fold
from domain.errors import IllegalCommand
from domain.games import game_names, get_game

SEEDS = (1, 2, 3)
MAX_COMMANDS = 5000
REFUSAL_SAMPLES_PER_TURN = 3


def cases() -> list[Any]:
    params = []
    for name in game_names():
        game = get_game(name)
        for index, config in enumerate(game.example_configs()):
            for seed in SEEDS:
                params.append(pytest.param(game, config, seed, id=f"{name}-{index}-seed{seed}"))
    return params


@dataclass
class PlayedGame:
    events: list[Event] = field(default_factory=list)
    commands: list[tuple[int, Command]] = field(default_factory=list)
    state: Any = None


def seed_bytes(seed: int) -> bytes:
    return seed.to_bytes(32, "big")


def play(game: Game, config: Any, seed: int) -> PlayedGame:
    """Play one seeded game to the end, checking the per-move properties as it goes."""
    chance = Chance(seed_bytes(seed))
    played = PlayedGame(events=game.setup(config, chance))
    played.state = fold(game, played.events)
    bots = {seat: RandomBot(seed * 100 + seat) for seat in range(config.players)}
    probe = seed_bytes(seed + 7919)
    probe_index = 0
    for _ in range(MAX_COMMANDS):
        seats = game.to_act(played.state)
        if not seats:
            return played
        seat = seats[0]
        before = game.copy_state(played.state)

        legal = game.legal_commands(played.state, seat)
        assert legal, f"seat {seat} must act but has no legal command"
        legal_set = set(legal)
        omitted = [c for c in game.candidate_commands(played.state, seat) if c not in legal_set]
        for _ in range(min(REFUSAL_SAMPLES_PER_TURN, len(omitted))):
            command = omitted[draw_below(probe, probe_index, len(omitted))]
            probe_index += 1
            with pytest.raises(IllegalCommand):
                decide(game, played.state, command, seat, chance)
        waiting = [s for s in range(config.players) if s not in seats]
        if waiting:
            with pytest.raises(IllegalCommand) as out_of_turn:
                decide(game, played.state, legal[0], waiting[0], chance)
            assert out_of_turn.value.code == "turn.not_yours"

        for viewer in [None, *range(config.players)]:
            scrambled = game.scramble_hidden(played.state, viewer, Chance(probe + bytes([1])))
            assert game.view(scrambled, viewer) == game.view(played.state, viewer), viewer
        assert played.state == before, "refusals and views must not change the state"

        command = bots[seat].choose(game, played.state, seat)
        assert command is not None
        new_events = decide(game, played.state, command, seat, chance)
        assert played.state == before, "decide must not change the state"
        assert new_events, f"an accepted command produces events: {command}"
        played.commands.append((seat, command))
        played.events.extend(new_events)
        played.state = fold(game, new_events, played.state)
    pytest.fail(f"game did not end within {MAX_COMMANDS} commands")


@pytest.mark.parametrize(("game", "config", "seed"), cases())
def test_random_game_obeys_the_protocol(game: Game, config: Any, seed: int) -> None:
    # Given a seeded game played to the end by random bots
    played = play(game, config, seed)
    final = played.state

    # Then the events round-trip through JSON and fold to exactly the live state
    decoder = msgspec.json.Decoder(list[game.event_type])
    decoded = decoder.decode(msgspec.json.encode(played.events))
    assert decoded == played.events
    assert fold(game, decoded) == final
    # And evolving them one by one gives that state too (fold may take a game's faster path)
    stepwise = None
    for event in decoded:
        stepwise = game.evolve(stepwise, event)
    assert stepwise == final

    # And replaying the recorded commands with the same seed re-derives the same events
    chance = Chance(seed_bytes(seed))
    events = game.setup(config, chance)
    state = fold(game, events)
    for seat, command in played.commands:
        produced = decide(game, state, command, seat, chance)
        events.extend(produced)
        state = fold(game, produced, state)
    assert events == played.events

    # And at the end nobody may act and the outcome is consistent
    assert game.to_act(final) == []
    assert all(game.legal_commands(final, seat) == [] for seat in range(config.players))
    outcome = game.outcome(final)
    assert outcome is not None
    assert sorted(s.seat for s in outcome.scores) == list(range(config.players))
    for score in outcome.scores:
        assert sum(score.breakdown.values()) == score.total, score
    by_rank = sorted(outcome.scores, key=lambda s: s.rank)
    assert all(a.total >= b.total for a, b in pairwise(by_rank))
    assert outcome.winners == sorted(s.seat for s in outcome.scores if s.rank == 1)

    # And every view encodes to JSON, and every event is shown as itself, redacted, or not at all
    event_types = msgspec.json.Decoder(game.event_type)
    for viewer in [None, *range(config.players)]:
        msgspec.json.encode(game.view(final, viewer))
        for event in played.events:
            shown = game.visible_event(event, viewer)
            if shown is not None:
                assert type(event_types.decode(msgspec.json.encode(shown))) is type(event)


@pytest.mark.parametrize(("game", "config", "seed"), cases())
def test_setup_is_a_pure_function_of_config_and_seed(game: Game, config: Any, seed: int) -> None:
    first = game.setup(config, Chance(seed_bytes(seed)))
    again = game.setup(config, Chance(seed_bytes(seed)))
    assert first == again
    assert fold(game, first) == fold(game, again)
