"""A game's rules as functions, and the base class that serves the game protocol from them.

A game's `game.py` subclasses `RulesGame` with its metadata (name, rules version, contracts,
whether a seat may pass, example configs, rating variants) and one `Rules` naming the functions
of its modules; the one-line delegations of the protocol are written here, once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from contracts.base import Command, Event, GameConfig, View
from contracts.outcome import Outcome
from domain.chance import Chance
from domain.engine import Bot, Game

State = TypeVar("State")


def never_passes(state: object, seat: int) -> Command | None:
    """No passing command: the `pass_command` of a game whose rules never let a seat pass."""
    del state, seat
    return None


@dataclass(frozen=True)
class Rules(Generic[State]):
    """The functions of one game's rules, one per member of the protocol (domain/engine.py says
    what each must do); the last three are optional."""

    setup: Callable[[GameConfig, Chance], list[Event]]
    decide: Callable[[State, Command, int, Chance], list[Event]]
    evolve: Callable[[State | None, Event], State]
    copy_state: Callable[[State], State]
    legal_commands: Callable[[State, int], list[Command]]
    candidate_commands: Callable[[State, int], list[Command]]
    to_act: Callable[[State], list[int]]
    view: Callable[[State, int | None], View]
    visible_event: Callable[[Event, int | None], Event | None]
    scramble_hidden: Callable[[State, int | None, Chance], State]
    outcome: Callable[[State], Outcome | None]
    render_text: Callable[[State], str]
    greedy_bot: Callable[[bytes], Bot]
    # The seat's passing command now, or None: never one unless the game's `may_pass`.
    pass_command: Callable[[State, int], Command | None] = never_passes
    # Events applied in one loop, exactly as `evolve` applies each (replay speed is fold speed);
    # None: `evolve` in a loop.
    fold: Callable[[State | None, Iterable[Event]], State | None] | None = None
    # The opening of a stored game under the rules revision its first event records (games with
    # rules revisions: docs/adding-a-game.md); None: `setup`, the game has one set of rules.
    setup_as_recorded: Callable[[GameConfig, Chance, Event], list[Event]] | None = None


class RulesGame(Game, Generic[State]):
    """The game protocol (domain/engine.py) over `rules`: a game subclasses it, sets the
    protocol's metadata (`name`, `rules_version`, the four contract types, `may_pass`) and
    `rules`, and writes `example_configs` and `rating_variant`."""

    rules: Rules[State]

    def setup(self, config: GameConfig, chance: Chance) -> list[Event]:
        """The opening events of a new game."""
        return self.rules.setup(config, chance)

    def setup_as_recorded(self, config: GameConfig, chance: Chance, first: Event) -> list[Event]:
        """The opening events of a stored game whose first event is `first`."""
        as_recorded = self.rules.setup_as_recorded
        if as_recorded is None:
            return self.rules.setup(config, chance)
        return as_recorded(config, chance, first)

    def decide(self, state: State, command: Command, seat: int, chance: Chance) -> list[Event]:
        """The events a command produces; IllegalCommand when the rules refuse it. The seat is
        one the game waits for: `domain.engine.decide` has checked the shared turn rules."""
        return self.rules.decide(state, command, seat, chance)

    def evolve(self, state: State | None, event: Event) -> State:
        """Apply one event (never validates)."""
        return self.rules.evolve(state, event)

    def fold(self, state: State | None, events: Iterable[Event]) -> State | None:
        """Apply events in order: what `evolve` does to each."""
        if self.rules.fold is not None:
            return self.rules.fold(state, events)
        evolve = self.rules.evolve
        for event in events:
            state = evolve(state, event)
        return state

    def copy_state(self, state: State) -> State:
        """An independent copy."""
        return self.rules.copy_state(state)

    def legal_commands(self, state: State, seat: int) -> list[Command]:
        """Every command the seat may legally send now."""
        return self.rules.legal_commands(state, seat)

    def candidate_commands(self, state: State, seat: int) -> list[Command]:
        """A superset of the legal commands, for refusal tests."""
        return self.rules.candidate_commands(state, seat)

    def to_act(self, state: State) -> list[int]:
        """The seats whose command the game waits for (none once it is over)."""
        return self.rules.to_act(state)

    def view(self, state: State, seat: int | None) -> View:
        """What the seat may see; None is a spectator."""
        return self.rules.view(state, seat)

    def visible_event(self, event: Event, seat: int | None) -> Event | None:
        """The event as the seat may see it in play: itself, a redacted copy, or None."""
        return self.rules.visible_event(event, seat)

    def scramble_hidden(self, state: State, seat: int | None, chance: Chance) -> State:
        """A copy in which only what the seat may not see differs."""
        return self.rules.scramble_hidden(state, seat, chance)

    def outcome(self, state: State) -> Outcome | None:
        """Final scores with a per-rule breakdown, or None while the game goes on."""
        return self.rules.outcome(state)

    def render_text(self, state: State) -> str:
        """A text drawing of the table."""
        return self.rules.render_text(state)

    def greedy_bot(self, seed: bytes) -> Bot:
        """The stand-in bot, greedy on the seat's immediate score."""
        return self.rules.greedy_bot(seed)

    def pass_command(self, state: State, seat: int) -> Command | None:
        """The seat's passing command now, or None."""
        return self.rules.pass_command(state, seat)
