"""Hand-built Landnám tables for scenario tests.

A table starts as a fresh 3-player game (seat 0 first, every first move made) whose island,
units, houses, hands and turn the "given" part of a test arranges directly; the "when" part
always goes through the engine's `decide`, and its events are folded onto the table.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec
import pytest

from contracts.base import Command, Event
from contracts.games.landnam import Hex, LandnamConfig, Phase, Resource, Terrain, Vertex
from domain import engine
from domain.chance import Chance
from domain.errors import IllegalCommand
from domain.games.landnam import GAME
from domain.games.landnam.board import corners
from domain.games.landnam.components import RESOURCES
from domain.games.landnam.state import LandnamState, Turn, Unit

SEED = bytes(range(32))


@dataclass
class Table:
    """A game under test."""

    state: LandnamState
    chance: Chance

    def play(self, seat: int, command: Command) -> list[Event]:
        """Decide and apply a command; its events."""
        events = engine.decide(GAME, self.state, command, seat, self.chance)
        self.state = engine.fold(GAME, events, self.state)
        return events

    def refuse(self, seat: int, command: Command) -> str:
        """The code the rules refuse a command with (and the state is unchanged)."""
        before = self.state.copy()
        with pytest.raises(IllegalCommand) as refused:
            engine.decide(GAME, self.state, command, seat, self.chance)
        assert self.state == before
        return refused.value.code

    def legal(self, seat: int) -> list[Command]:
        """The seat's legal commands."""
        return GAME.legal_commands(self.state, seat)

    def land(self, h: Hex, terrain: Terrain, number: int | None = None) -> None:
        """Lay an explored hex (taken from the stocks)."""
        self.state.terrain[h] = terrain
        self.state.terrain_stock[terrain] -= 1
        if number is not None:
            self.state.numbers[h] = number
            self.state.number_stock[number] -= 1

    def unit(self, owner: int, kind: str, at: Hex | None, red: tuple[int, ...] = ()) -> int:
        """Put a unit in play; its id."""
        uid = self.state.next_unit
        self.state.next_unit += 1
        self.state.units[uid] = Unit(uid, owner, kind, at, red=list(red))  # type: ignore[arg-type]
        return uid

    def house(self, owner: int, vertex: Vertex, level: int = 1) -> None:
        """Put a farm (1) or town (2)."""
        self.state.houses[vertex] = (owner, level)

    def hand(self, seat: int, **cards: int) -> None:
        """Set a seat's resource cards (the stock keeps the total per type at 24)."""
        player = self.state.players[seat]
        for resource in RESOURCES:
            want = cards.get(resource, 0)
            self.state.stock[resource] += player.hand[resource] - want
            player.hand[resource] = want

    def phase(self, phase: Phase, seat: int = 0, dice: tuple[int, int] | None = None) -> None:
        """Start seat's turn at `phase`."""
        self.state.turn = Turn(seat=seat, phase=phase, dice=dice)


def table(players: int = 3, revision: int | None = None) -> Table:
    """A fresh game with seat 0 first, every ship still on the outer sea but every first move
    counted as made, no fate cards, and empty hands; with `revision`, a game whose stored
    LandnamBegun records that rules revision (a new game's otherwise)."""
    chance = Chance(SEED)
    opening = GAME.setup(LandnamConfig(players=players), chance)
    if revision is not None:
        opening[0] = msgspec.structs.replace(opening[0], revision=revision)
    state = engine.fold(GAME, opening)
    state.first_seat = 0
    state.deck = sorted(state.deck + [c for p in state.players for c in p.fate])
    for player in state.players:
        player.fate = []
        player.started = True
    new = Table(state, chance)
    for seat in range(players):
        new.hand(seat)
    new.phase("roll")
    return new


def vertex_of(h: Hex, corner: int) -> Vertex:
    """The `corner`-th vertex of a hex (0..5, clockwise, see board.corners)."""
    return corners(h)[corner]


def hand_of(t: Table, seat: int) -> dict[Resource, int]:
    """A seat's resource hand."""
    return dict(t.state.players[seat].hand)


def draw_index_giving(t: Table, want: int, sides: int, count: int = 1, start: int = 0) -> int:
    """The first draw index from `start` at which `count` dice of `sides` sum to `want`."""
    for index in range(start, start + 10_000):
        total = sum(1 + t.chance.below(index + k, sides) for k in range(count))
        if total == want:
            return index
    raise AssertionError("no such draw")
