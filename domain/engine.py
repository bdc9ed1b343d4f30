"""The game protocol: what every game module under `domain/games/` provides.

A game is pure rules. The service drives it only through this protocol, so nothing outside
`domain/games/` names a game.

    setup(config, chance)              -> the opening events (random choices drawn from `chance`)
    decide(state, command, seat, chance)-> events; the only place that validates (IllegalCommand)
    evolve(state, event)               -> state; applies, never validates
    legal_commands(state, seat)        -> every legal command for the seat
    to_act(state)                      -> the seats that may act now (empty when the game is over)
                                          (several at once where the rules let several act)
    view(state, seat | None)           -> what the seat may see (None: a spectator)
    visible_event(event, seat | None)  -> the event as the seat may see it, or None (in play)
    outcome(state)                     -> final scores, or None while the game goes on
    render_text(state)                 -> a readable terminal drawing of the table
    candidate_commands(state, seat)    -> a superset of the legal commands (for refusal tests)
    scramble_hidden(state, seat, chance)-> a copy whose hidden information (to seat) differs
    greedy_bot(seed)                   -> a bot greedy on a seat's immediate score (stand-ins)
    may_pass, pass_command(state, seat)-> whether the rules let a seat pass; its passing command
    rating_variant(config)             -> the variant a game with this config is rated in
    setup_as_recorded(config, chance, first_event) (optional) -> a stored game's opening,
                                          under the rules revision its first event records

Callers decide through `decide(game, state, command, seat, chance)` below, which applies the
turn rules every game shares (`check_may_act`: one set of refusal codes, `game.finished` and
`turn.not_yours`, for every game) before the game's own `decide`; so a game's `decide` checks
only its own rules and may assume the seat is one of `to_act(state)`.

The last two make the conformance suite game-agnostic: commands in `candidate_commands` but
not in `legal_commands` must be refused, and a seat's view must not change when only what is
hidden from it changes.

Choices of this protocol, and why:
- `decide` and `setup` take a `Chance` bound to the secret seed instead of the seed itself, and
  the state counts the draws used, so each draw's index comes from the events. Chance is pure.
- State is a mutable object owned by the fold: `evolve` may update it in place and returns it
  (fold speed matters: replay must keep pace with decoding). `decide`, `legal_commands`, `view`
  and `outcome` never change it. `copy_state` gives an independent copy.
- `evolve(None, first_setup_event)` creates the state. States compare with `==` (dataclasses).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from contracts.base import Command, Event, GameConfig, View
from contracts.outcome import Outcome
from domain.chance import Chance
from domain.errors import IllegalCommand


@runtime_checkable
class Game(Protocol):
    """The module-level API of one game (each game package exposes an object like this; the
    built-in games build theirs on `domain.kernel.rules_game.RulesGame`)."""

    name: str
    rules_version: str
    # The msgspec types the service decodes with: config Struct, command union, event union.
    config_type: type[GameConfig]
    command_type: Any
    event_type: Any
    view_type: Any
    # Whether the rules let a seat pass its turn (a timed-out turn may then be skipped).
    may_pass: bool

    def example_configs(self) -> Sequence[GameConfig]:
        """Configs that cover the game's options, for conformance tests and demos."""
        ...

    def rating_variant(self, config: Mapping[str, object]) -> str:
        """The variant a game created with `config` (as its GameCreated records it) is rated
        in: what in the config makes it a different game to be good at, never the player
        count; 1 to 63 lowercase letters, digits and dashes. `{}` gives the default's."""
        ...

    def setup(self, config: GameConfig, chance: Chance) -> list[Event]:
        """The opening events of a new game."""
        ...

    def decide(self, state: Any, command: Command, seat: int, chance: Chance) -> list[Event]:
        """The events a command produces; raises IllegalCommand when the rules refuse it."""
        ...

    def evolve(self, state: Any, event: Event) -> Any:
        """Apply one event (never validates). `state` is None for the first event."""
        ...

    def copy_state(self, state: Any) -> Any:
        """An independent copy of a state."""
        ...

    def legal_commands(self, state: Any, seat: int) -> list[Command]:
        """Every command the seat may legally send now."""
        ...

    def to_act(self, state: Any) -> list[int]:
        """The seats whose command the game is waiting for."""
        ...

    def view(self, state: Any, seat: int | None) -> View:
        """What `seat` may see; None is the public (spectator) view."""
        ...

    def visible_event(self, event: Event, seat: int | None) -> Event | None:
        """The event as `seat` may see it while the game is in play: itself, a redacted
        copy, or None when it is hidden altogether (after the end every event is public)."""
        ...

    def outcome(self, state: Any) -> Outcome | None:
        """Final scores with a per-rule breakdown, or None while the game goes on."""
        ...

    def render_text(self, state: Any) -> str:
        """A readable text drawing of the table for terminals."""
        ...

    def candidate_commands(self, state: Any, seat: int) -> list[Command]:
        """Plausible commands, legal or not: a superset of `legal_commands` for refusal tests."""
        ...

    def scramble_hidden(self, state: Any, seat: int | None, chance: Chance) -> Any:
        """A copy of `state` in which only what `seat` may not see has been changed."""
        ...

    def greedy_bot(self, seed: bytes) -> Bot:
        """A bot that picks, among the seat's legal commands, the one that maximises its
        immediate score, from what the seat may see only; the same seed, the same choice."""
        ...

    def pass_command(self, state: Any, seat: int) -> Command | None:
        """The legal command by which the seat passes its current decision doing nothing, or
        None when it has none (always None where `may_pass` is False)."""
        ...


class Bot(Protocol):
    """A player the service (or a test) lets choose a seat's move."""

    def choose(self, game: Game, state: Any, seat: int) -> Command | None:
        """One of the seat's legal commands, or None when it has none."""
        ...


def check_may_act(game: Game, state: Any, seat: int) -> None:
    """The turn rules every game shares: refuse a command once the game is over
    (`game.finished`), or from a seat the game is not waiting for (`turn.not_yours`).

    A game's own `decide` may assume both hold: every caller goes through `decide` below.
    """
    to_act = game.to_act(state)
    if not to_act:
        raise IllegalCommand("game.finished", "The game is over.")
    if seat not in to_act:
        waiting = " and ".join(str(waiting_seat) for waiting_seat in to_act)
        raise IllegalCommand(
            "turn.not_yours",
            f"It is seat {waiting}'s turn, not seat {seat}'s.",
            seat=seat,
            to_act=list(to_act),
        )


def decide(game: Game, state: Any, command: Command, seat: int, chance: Chance) -> list[Event]:
    """The events `seat`'s command produces: the shared turn rules, then the game's rules."""
    check_may_act(game, state, seat)
    return game.decide(state, command, seat, chance)


def fold(game: Game, events: Iterable[Event], state: Any = None) -> Any:
    """Apply events in order, starting from `state` (None: a new game).

    A game may offer `fold(state, events)`, which must give what `evolve` gives event by event
    (the conformance tests check it): replay speed is fold speed, and a loop inside the game
    saves a call and a lookup per event.
    """
    batch = getattr(game, "fold", None)
    if batch is not None:
        return batch(state, events)
    evolve = game.evolve
    for event in events:
        state = evolve(state, event)
    return state


def setup_as_recorded(
    game: Game, config: GameConfig, chance: Chance, recorded: Sequence[Event]
) -> list[Event]:
    """The opening events `setup` gives a stored game whose recorded opening is `recorded`.

    A game whose rules have revisions records in its first event the revision it was set up
    under and keeps it to its end; such a game offers `setup_as_recorded(config, chance,
    first_event)`, the opening under that revision, so the fairness check re-derives an old
    game's opening (and then its commands) under the rules it was played under. Any other
    game's opening is `setup`'s.
    """
    as_recorded = getattr(game, "setup_as_recorded", None)
    if as_recorded is None or not recorded:
        return game.setup(config, chance)
    return list(as_recorded(config, chance, recorded[0]))
