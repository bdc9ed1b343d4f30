"""Every registered game, in every example config, obeys the game protocol.

Seeded random games are played to the end with RandomBot seats. Along the way:
- the events survive a JSON round trip and fold (at once, or one by one) to exactly the live
  state;
- `decide`, `legal_commands`, `view` and `outcome` never change the state;
- any seat in `to_act` may act (the seeded probe picks one, so games where several seats
  act at once are played in every order); for every seat in `to_act`, the candidate commands
  `decide` accepts are exactly its `legal_commands`; a sample of the candidates
  `legal_commands` omits is refused, and a legal command sent by a seat the game is not
  waiting for is refused with `turn.not_yours` by the shared engine check;
- a seat's view (and the public view) does not change when only hidden information does;
- replaying the recorded commands with the same seed re-derives exactly the same events;
- `visible_event` shows each event as an event of the same kind, or hides it;
- the game ends, nobody can act at the end, and the outcome is consistent;
- a game whose rules have revisions also obeys it under revision 1, as its stored games do.
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
from domain.engine import Game, decide, fold, setup_as_recorded
from domain.errors import IllegalCommand
from domain.games import game_names, get_game

SEEDS = (1, 2, 3)
MAX_COMMANDS = 5000
SAMPLES_PER_MOVE = 3
FULL_CHECK_EVERY = 50


class AtFirstRevision:
    """A game whose rules have revisions, setting new games up under revision 1 as every game
    stored before revisions was: the protocol holds under the old rules too."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def setup(self, config: Any, chance: Chance) -> list[Event]:
        """The game's opening, as recorded under revision 1."""
        first = msgspec.structs.replace(self.game.setup(config, chance)[0], revision=1)
        return setup_as_recorded(self.game, config, chance, [first])


def has_revisions(game: Game, config: Any) -> bool:
    """Whether the game's setup event records a rules revision."""
    first = game.setup(config, Chance(seed_bytes(SEEDS[0])))[0]
    return any(member.name == "revision" for member in msgspec.structs.fields(type(first)))


def cases() -> list[Any]:
    params = []
    for name in game_names():
        game = get_game(name)
        for index, config in enumerate(game.example_configs()):
            for seed in SEEDS:
                params.append(pytest.param(game, config, seed, id=f"{name}-{index}-seed{seed}"))
            if has_revisions(game, config):
                old = AtFirstRevision(game)
                params.append(pytest.param(old, config, SEEDS[0], id=f"{name}-{index}-revision1"))
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
    samples = seed_bytes(seed + 104729)  # the probe of the sampled checks
    checks = 0
    picks = seed_bytes(seed + 15485863)  # which of several seats in to_act acts
    for move in range(MAX_COMMANDS):
        seats = game.to_act(played.state)
        if not seats:
            return played
        # Any seat the game waits for may act: a seeded draw picks which one.
        seat = seats[draw_below(picks, move, len(seats))]
        before = game.copy_state(played.state)

        # Every seat the game waits for: its legal commands are accepted and the candidates
        # they omit refused (sampled each move, in full every FULL_CHECK_EVERY moves).
        full_check = len(played.commands) % FULL_CHECK_EVERY == 0
        for acting in seats:
            legal = game.legal_commands(played.state, acting)
            assert legal, f"seat {acting} must act but has no legal command"
            assert len(set(legal)) == len(legal), "legal commands are listed once each"
            legal_set = set(legal)
            omitted = [
                c for c in game.candidate_commands(played.state, acting) if c not in legal_set
            ]
            if not full_check:
                legal = sample(legal, samples, checks)
                omitted = sample(omitted, samples, checks + 1)
                checks += 2
            for command in legal:
                game.decide(played.state, command, acting, chance)
            for command in omitted:
                with pytest.raises(IllegalCommand):
                    game.decide(played.state, command, acting, chance)
        legal = game.legal_commands(played.state, seat)
        waiting = [s for s in range(config.players) if s not in seats]
        if waiting:
            assert game.legal_commands(played.state, waiting[0]) == []
            with pytest.raises(IllegalCommand) as refused:
                decide(game, played.state, legal[0], waiting[0], chance)
            assert refused.value.code == "turn.not_yours"

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


def sample(commands: list[Command], probe: bytes, index: int) -> list[Command]:
    """Up to SAMPLES_PER_MOVE of `commands`, picked by the probe's draws from `index` on."""
    picked = []
    pool = list(commands)
    for k in range(min(SAMPLES_PER_MOVE, len(pool))):
        picked.append(pool.pop(draw_below(probe, index * SAMPLES_PER_MOVE + k, len(pool))))
    return picked


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


@pytest.mark.parametrize(("game", "config", "seed"), cases())
def test_a_stored_opening_sets_up_again_as_recorded(game: Game, config: Any, seed: int) -> None:
    # The fairness check re-derives a stored game's opening with setup_as_recorded: a new
    # game's opening is set up again unchanged (at its revision, for a game that has them)
    opening = game.setup(config, Chance(seed_bytes(seed)))
    assert setup_as_recorded(game, config, Chance(seed_bytes(seed)), opening) == opening
