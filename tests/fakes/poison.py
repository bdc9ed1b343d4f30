"""Poisoned race: the race game (tests/fakes/race.py) whose rules fail on chosen commands.

A `Move` of a poison step count makes one step of a drain round fail, as a buggy game or a
hostile value would:
- `DECIDE_FAILS`: `decide` raises.
- `EVOLVE_FAILS`: `decide` accepts, `evolve` raises on the event.
- `EVENT_UNSTORABLE`: the event carries an int MessagePack cannot hold (encoding it fails).
- `REFUSAL_UNSTORABLE`: the refusal's details carry such an int (its record cannot be stored).
- `VIEW_FAILS`: the event applies, but the state it leaves cannot be viewed.
Any other step count plays as in the race. Register with `register_poisoned_race()`.
"""

from __future__ import annotations

from contracts.base import Command, Event
from domain import games
from domain.chance import Chance
from domain.errors import IllegalCommand
from tests.fakes.race import Move, Moved, RaceGame, RaceState, RaceView

NAME = "poisoned_race"
DECIDE_FAILS = 101
EVOLVE_FAILS = 102
EVENT_UNSTORABLE = 103
REFUSAL_UNSTORABLE = 104
VIEW_FAILS = 105
POISONS = (DECIDE_FAILS, EVOLVE_FAILS, EVENT_UNSTORABLE, REFUSAL_UNSTORABLE, VIEW_FAILS)
TOO_BIG = 2**64  # one more than MessagePack's largest int


def refusal_code(steps: int) -> str:
    """The code a poison move is refused with: the rules failed, or (its refusal or its views
    cannot be stored) the service around them."""
    return "command.internal_error" if steps in (REFUSAL_UNSTORABLE, VIEW_FAILS) else "engine.error"


class PoisonedRaceGame(RaceGame):
    """The race, failing on the poison step counts."""

    name = NAME

    def decide(self, state: RaceState, command: Command, seat: int, chance: Chance) -> list[Event]:
        """As the race, but a poison move fails its chosen step."""
        steps = command.steps if isinstance(command, Move) else 0
        if steps == DECIDE_FAILS:
            raise RuntimeError("decide failed")
        if steps == REFUSAL_UNSTORABLE:
            raise IllegalCommand("race.bad_steps", "no such move", steps=TOO_BIG)
        if steps in (EVOLVE_FAILS, EVENT_UNSTORABLE, VIEW_FAILS) and seat == state.turn:
            roll = TOO_BIG if steps == EVENT_UNSTORABLE else 0
            return [Moved(seat, steps, roll, state.draws)]
        return super().decide(state, command, seat, chance)

    def evolve(self, state: RaceState | None, event: Event) -> RaceState:
        """As the race, but the evolve poison fails (after changing the state half-way)."""
        if isinstance(event, Moved) and event.steps == EVOLVE_FAILS:
            assert state is not None
            state.positions[event.seat] += 1  # half-applied: the state cannot be trusted
            raise RuntimeError("evolve failed")
        if isinstance(event, Moved) and event.steps == VIEW_FAILS:
            assert state is not None
            state.positions[event.seat] = -VIEW_FAILS  # a position no view can show
            state.turn = (event.seat + 1) % len(state.positions)
            return state
        return super().evolve(state, event)

    def view(self, state: RaceState, seat: int | None) -> RaceView:
        """As the race, but a state left by the view poison cannot be viewed."""
        if -VIEW_FAILS in state.positions:
            raise RuntimeError("view failed")
        return super().view(state, seat)


POISONED_RACE = PoisonedRaceGame()


def register_poisoned_race() -> PoisonedRaceGame:
    """Make the poisoned race available through domain.games.get_game("poisoned_race")."""
    games.register(POISONED_RACE)
    return POISONED_RACE


def register() -> None:
    """Plugin hook (SKALD_PLUGINS=tests.fakes.poison): register the race and the poisoned race."""
    from tests.fakes.race import register_race

    register_race()
    register_poisoned_race()
