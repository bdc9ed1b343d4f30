"""Hand-arranged Fire & Axe tables for scenario tests.

A table starts as the service would set it up (seeded), then the "given" part of a scenario
arranges it directly (where a longship is, what it carries, the dial, the Sagas); the "when"
part always goes through `decide`. Dice come from `ScriptedDice`, a Chance whose die rolls are
the ones the scenario lists (other draws fall back to the seed).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import msgspec
import pytest

from contracts.base import Command, Event
from contracts.games.fire_and_axe import FireAndAxeConfig, Good, RuneKind
from domain.chance import Chance
from domain.engine import fold
from domain.errors import IllegalCommand
from domain.games.fire_and_axe import GAME
from domain.games.fire_and_axe.data import DIE_FACES
from domain.games.fire_and_axe.state import FireAndAxeState, Player, Turn

SEED = bytes(range(32))


class ScriptedDice(Chance):
    """A Chance whose die rolls (draws below 6) are the scripted ones, in order."""

    __slots__ = ("rolls",)

    def __init__(self, seed: bytes, rolls: Iterable[int] = ()) -> None:
        super().__init__(seed)
        self.rolls = list(rolls)

    def below(self, index: int, n: int) -> int:
        if n == DIE_FACES and self.rolls:
            return self.rolls.pop(0) - 1
        return super().below(index, n)


@dataclass
class Table:
    """A game under test: commands through `decide`, givens arranged directly."""

    state: FireAndAxeState
    chance: ScriptedDice = field(default_factory=lambda: ScriptedDice(SEED))

    @property
    def seat(self) -> int:
        assert self.state.turn is not None
        return self.state.turn.seat

    @property
    def turn(self) -> Turn:
        assert self.state.turn is not None
        return self.state.turn

    def player(self, seat: int | None = None) -> Player:
        return self.state.players[self.seat if seat is None else seat]

    def play(self, command: Command, *rolls: int) -> list[Event]:
        """Send a command from the seat to act (with these die rolls) and apply its events."""
        self.chance.rolls = list(rolls)
        events = GAME.decide(self.state, command, self.seat, self.chance)
        assert not self.chance.rolls, "every scripted roll is used"
        self.state = fold(GAME, events, self.state)
        return events

    def refuse(self, command: Command, seat: int | None = None) -> IllegalCommand:
        """Send a command the rules must refuse; check it changed nothing and that
        `legal_commands` does not list it."""
        before = self.state.copy()
        acting = self.seat if seat is None else seat
        assert command not in GAME.legal_commands(self.state, acting)
        with pytest.raises(IllegalCommand) as caught:
            GAME.decide(self.state, command, acting, self.chance)
        assert self.state == before, "a refused command changes nothing"
        return caught.value

    def legal(self) -> list[Command]:
        return GAME.legal_commands(self.state, self.seat)

    def ship(
        self,
        location: str,
        crew: int = 1,
        goods: Iterable[Good] = (),
        seat: int | None = None,
    ) -> Table:
        """Given: the seat's longship is here with this crew and these goods aboard."""
        player = self.player(seat)
        for good in player.goods:
            self.state.supply[good] += 1
        player.location = location
        player.crew = crew
        player.goods = sorted(goods)
        for good in player.goods:
            self.state.supply[good] -= 1
        return self

    def runes(self, *kinds: RuneKind, seat: int | None = None) -> Table:
        """Given: the seat holds exactly these Runes."""
        self.player(seat).runes = sorted(kinds)
        return self

    def days(self, preparation: int = 0, sailing: int = 0) -> Table:
        """Given: Days already spent this turn."""
        self.turn.preparation = preparation
        self.turn.sailing = sailing
        return self

    def events_of(self, events: list[Event], kind: type) -> list[Event]:
        return [event for event in events if isinstance(event, kind)]


def new_table(
    players: int = 3, conflict_runes: bool = True, seed: bytes = SEED, revision: int | None = None
) -> Table:
    """A game set up as the service would, with the first seat to act; with `revision`, a
    game whose stored TableSetUp records that rules revision (a new game's otherwise)."""
    config = FireAndAxeConfig(players=players, conflict_runes=conflict_runes)
    chance = ScriptedDice(seed)
    opening = GAME.setup(config, chance)
    if revision is not None:
        opening[0] = msgspec.structs.replace(opening[0], revision=revision)
    state = fold(GAME, opening)
    return Table(state, chance)


def kinds(events: list[Event]) -> list[str]:
    """The event type names, in order."""
    return [type(event).__name__ for event in events]
