"""Race: a small fake game for service tests, meeting the whole domain.engine.Game protocol.

Two to four seats race along a track to `target`. On its turn a seat either moves 1-3 steps
(plus a die roll of 0-2 drawn from the game's Chance) or plays its secret boost once (a value
1-3 dealt at setup, seen only by its owner until played). The first seat to reach the target
ends the game; ranks follow positions. The hidden boost exercises view filtering and event
redaction (`visible_event`), the die exercises provably fair draws.

Import the module, then `register_race()`; `unregister("race")` undoes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import msgspec

from contracts.base import Command, Event, GameConfig, View
from contracts.outcome import Outcome, PlayerScore
from domain import games
from domain.bots import GreedyBot
from domain.chance import Chance
from domain.errors import IllegalCommand

NAME = "race"
MAX_STEPS = 3
BOOST_VALUES = 3  # boosts are 1..3
DIE_FACES = 3  # rolls are 0..2


class RaceConfig(GameConfig, frozen=True):
    """Seats and the finish line."""

    target: int = 20


class Move(Command, frozen=True):
    """Move `steps` (1-3) plus a die roll."""

    steps: int


class Boost(Command, frozen=True):
    """Play the secret boost (once per game)."""


RaceCommand = Move | Boost


class RaceStarted(Event, frozen=True):
    """The first event: seats and target."""

    players: int
    target: int


class BoostDealt(Event, frozen=True):
    """A seat's secret boost (None when redacted for someone else)."""

    seat: int
    value: int | None
    draw: int


class FirstSeatDrawn(Event, frozen=True):
    """Who moves first."""

    seat: int
    draw: int


class Moved(Event, frozen=True):
    """A seat moved `steps` plus `roll`."""

    seat: int
    steps: int
    roll: int
    draw: int


class Boosted(Event, frozen=True):
    """A seat played its boost (now public)."""

    seat: int
    value: int


RaceEvent = RaceStarted | BoostDealt | FirstSeatDrawn | Moved | Boosted


class RaceView(View, frozen=True):
    """What a seat (or spectator, seat None) sees."""

    positions: list[int]
    to_act: list[int]
    boosts_used: list[bool]
    target: int
    my_boost: int | None = None
    winner: int | None = None


@dataclass
class RaceState:
    """The whole game, hidden boosts included."""

    target: int
    positions: list[int]
    boosts: list[int | None] = field(default_factory=list)
    boosts_used: list[bool] = field(default_factory=list)
    turn: int = -1
    draws: int = 0
    winner: int | None = None


class RaceGame:
    """The game object the registry holds."""

    name = NAME
    rules_version = "1"
    config_type: type[GameConfig] = RaceConfig
    command_type: Any = RaceCommand
    event_type: Any = RaceEvent
    view_type: Any = RaceView
    # No passing: every turn moves.
    may_pass: bool = False

    def rating_variant(self, config: Mapping[str, object]) -> str:
        """One rating pool: the target only sets the length."""
        return "standard"

    def example_configs(self) -> Sequence[GameConfig]:
        """Two and three seats."""
        return [RaceConfig(players=2, target=12), RaceConfig(players=3, target=15)]

    def setup(self, config: GameConfig, chance: Chance) -> list[Event]:
        """Deal a secret boost to each seat and draw who starts."""
        assert isinstance(config, RaceConfig)
        if not 2 <= config.players <= 4:
            raise ValueError(f"race takes 2 to 4 players, not {config.players}")
        if config.target < 5:
            raise ValueError(f"race needs a target of at least 5, not {config.target}")
        events: list[Event] = [RaceStarted(config.players, config.target)]
        for seat in range(config.players):
            events.append(BoostDealt(seat, chance.below(seat, BOOST_VALUES) + 1, seat))
        draw = config.players
        events.append(FirstSeatDrawn(chance.below(draw, config.players), draw))
        return events

    def decide(self, state: RaceState, command: Command, seat: int, chance: Chance) -> list[Event]:
        """Validate and produce events (whose turn it is, and whether the race is over, is
        checked for every game by `domain.engine.decide`)."""
        match command:
            case Move(steps=steps):
                if not 1 <= steps <= MAX_STEPS:
                    raise IllegalCommand(
                        "race.bad_steps", f"move 1 to {MAX_STEPS} steps, not {steps}", steps=steps
                    )
                return [Moved(seat, steps, chance.below(state.draws, DIE_FACES), state.draws)]
            case Boost():
                if state.boosts_used[seat]:
                    raise IllegalCommand("race.boost_used", "your boost is already played")
                value = state.boosts[seat]
                assert value is not None
                return [Boosted(seat, value)]
        raise IllegalCommand("race.unknown_command", f"unknown command {command!r}")

    def evolve(self, state: RaceState | None, event: Event) -> RaceState:
        """Apply one event."""
        if state is None:
            assert isinstance(event, RaceStarted)
            return RaceState(
                event.target,
                [0] * event.players,
                [None] * event.players,
                [False] * event.players,
            )
        match event:
            case BoostDealt(seat=seat, value=value, draw=draw):
                state.boosts[seat] = value
                state.draws = max(state.draws, draw + 1)
            case FirstSeatDrawn(seat=seat, draw=draw):
                state.turn = seat
                state.draws = max(state.draws, draw + 1)
            case Moved(seat=seat, steps=steps, roll=roll, draw=draw):
                self._advance(state, seat, steps + roll)
                state.draws = max(state.draws, draw + 1)
            case Boosted(seat=seat, value=value):
                state.boosts_used[seat] = True
                self._advance(state, seat, value)
        return state

    @staticmethod
    def _advance(state: RaceState, seat: int, by: int) -> None:
        state.positions[seat] += by
        if state.positions[seat] >= state.target:
            state.winner = seat
            state.turn = -1
        else:
            state.turn = (seat + 1) % len(state.positions)

    def copy_state(self, state: RaceState) -> RaceState:
        """An independent copy."""
        return replace(
            state,
            positions=list(state.positions),
            boosts=list(state.boosts),
            boosts_used=list(state.boosts_used),
        )

    def legal_commands(self, state: RaceState, seat: int) -> list[Command]:
        """Moves of 1-3, and the boost while unused."""
        if state.winner is not None or seat != state.turn:
            return []
        legal: list[Command] = [Move(steps) for steps in range(1, MAX_STEPS + 1)]
        if not state.boosts_used[seat]:
            legal.append(Boost())
        return legal

    def to_act(self, state: RaceState) -> list[int]:
        """The seat whose turn it is."""
        return [] if state.winner is not None or state.turn < 0 else [state.turn]

    def view(self, state: RaceState, seat: int | None) -> RaceView:
        """Positions are public; a boost is seen by its owner only."""
        return RaceView(
            positions=list(state.positions),
            to_act=self.to_act(state),
            boosts_used=list(state.boosts_used),
            target=state.target,
            my_boost=state.boosts[seat] if seat is not None else None,
            winner=state.winner,
        )

    def visible_event(self, event: Event, seat: int | None) -> Event | None:
        """Another seat's boost is redacted while the game goes on."""
        if isinstance(event, BoostDealt) and event.seat != seat:
            return BoostDealt(event.seat, None, event.draw)
        return event

    def outcome(self, state: RaceState) -> Outcome | None:
        """Positions rank the seats once someone has finished."""
        if state.winner is None:
            return None
        ordered = sorted(set(state.positions), reverse=True)
        scores = [
            PlayerScore(seat, pos, {"position": pos}, ordered.index(pos) + 1)
            for seat, pos in enumerate(state.positions)
        ]
        return Outcome(scores, [s.seat for s in scores if s.rank == 1])

    def render_text(self, state: RaceState) -> str:
        """One line per seat with a bar to the finish."""
        return "\n".join(
            f"seat {seat}: {'#' * pos}{'.' * max(state.target - pos, 0)} {pos}"
            for seat, pos in enumerate(state.positions)
        )

    def candidate_commands(self, state: RaceState, seat: int) -> list[Command]:
        """Every move size 0-4 and the boost."""
        return [*(Move(steps) for steps in range(0, MAX_STEPS + 2)), Boost()]

    def scramble_hidden(self, state: RaceState, seat: int | None, chance: Chance) -> RaceState:
        """Change the unused boosts of every other seat."""
        copy = self.copy_state(state)
        for other, used in enumerate(copy.boosts_used):
            if other != seat and not used:
                copy.boosts[other] = chance.below(other, BOOST_VALUES) + 1
        return copy

    def greedy_bot(self, seed: bytes) -> GreedyBot:
        """Greedy on the seat's position (its own boost is the only hidden thing it uses)."""
        return GreedyBot(seed, lambda state, seat: (state.positions[seat],))

    def pass_command(self, state: Any, seat: int) -> Command | None:
        """None: the rules never let a seat pass."""
        del state, seat
        return None


RACE = RaceGame()


def register_race() -> RaceGame:
    """Make the race available through domain.games.get_game("race")."""
    games.register(RACE)
    return RACE


def race_config(players: int = 2, target: int = 12) -> dict[str, Any]:
    """A config as an API client sends it."""
    return msgspec.to_builtins(RaceConfig(players=players, target=target))  # type: ignore[no-any-return]


def register() -> None:
    """Plugin hook (SKALD_PLUGINS=tests.fakes.race): register the race game."""
    register_race()
