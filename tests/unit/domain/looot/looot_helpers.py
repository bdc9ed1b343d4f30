"""Hand-built Looot tables for scenario tests.

Boards are small flat-top even-q pictures (X Axe, W Wood, S Sheep, G Gold, H House,
T Watchtower, C Castle, O ocean, . no hex) and spaces are named by picture (column, row)
through `cell`. Two facts make the pictures easy to read:
- in one row, each hex touches the hexes left and right of it;
- a hex touches the hexes above and below it in its column; rows 0 and 2 never touch.

Fjord spaces are named by the printed (x, y) of the component data through the same
`cell`. The "given" part of a scenario may arrange the table directly (Vikings on spaces,
tiles on a Fjord, tiles just gained); the "when" part always goes through `decide`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from contracts.base import Command, Event
from contracts.games.looot import FjordSites, GameSetUp, Hex, LoootConfig, LoootPlaceTile, Tile
from domain.chance import Chance
from domain.engine import decide, fold
from domain.errors import IllegalCommand
from domain.games.looot import GAME
from domain.games.looot.board import board_from_picture
from domain.games.looot.components import LONGSHIPS
from domain.games.looot.evolve import evolve, initial_stacks
from domain.games.looot.fjord import free_spaces
from domain.games.looot.state import LoootState, PlayerState, Turn
from domain.hexgrid import even_q_to_axial

SEED = bytes(range(32))


def longship_id(boosts: str, bonus: int, needs: str) -> int:
    """The id of the Longship card (longships.json) with this type, bonus and needs (letters)."""
    letters = {"X": "axe", "W": "wood", "S": "sheep", "G": "gold"}
    wanted = tuple(letters[letter] for letter in needs)
    (found,) = [
        ship.id
        for ship in LONGSHIPS.values()
        if (ship.boosts, ship.bonus, ship.needs) == (boosts, bonus, wanted)
    ]
    return found


WOOD_XXW = longship_id("wood", 1, "XXW")
CASTLE_XXW = longship_id("castle", 3, "XXW")


def cell(col: int, row: int = 0) -> Hex:
    """The axial hex of a picture's (column, row), or of a Fjord's printed (x, y)."""
    return even_q_to_axial(col, row)


@dataclass
class Table:
    """A game under test: play commands through `decide`, arrange givens directly."""

    state: LoootState
    chance: Chance = field(default_factory=lambda: Chance(SEED))

    def play(self, command: Command, seat: int | None = None) -> list[Event]:
        """Send a command (from the seat to act unless told) and apply its events."""
        if seat is None:
            assert self.state.turn is not None
            seat = self.state.turn.seat
        events = decide(GAME, self.state, command, seat, self.chance)
        self.state = fold(GAME, events, self.state)
        return events

    def refuse(self, command: Command, seat: int | None = None) -> IllegalCommand:
        """Send a command the rules must refuse; check it changed nothing."""
        before = self.state.copy()
        with pytest.raises(IllegalCommand) as caught:
            self.play(command, seat)
        assert self.state == before, "a refused command changes nothing"
        return caught.value

    def player(self, seat: int) -> PlayerState:
        return self.state.players[seat]

    @property
    def turn(self) -> Turn:
        assert self.state.turn is not None
        return self.state.turn

    def vikings(self, seat: int, *spaces: Hex) -> Table:
        """Given: Vikings of `seat` already stand on these spaces."""
        for space in spaces:
            self.state.vikings[space] = (*self.state.vikings.get(space, ()), seat)
            self.player(seat).vikings_left -= 1
        return self

    def fjord(self, seat: int, tiles: dict[Hex, Tile]) -> Table:
        """Given: these tiles already lie on the seat's Fjord."""
        self.player(seat).tiles.update(tiles)
        return self

    def gained(self, *tiles: Tile) -> Table:
        """Given: the player to act placed a Viking this turn and gained these tiles."""
        self.turn.vikings_placed = 1
        self.turn.pending += tiles
        return self

    def viking_placed(self) -> Table:
        """Given: the player to act placed this turn's Viking and its tiles."""
        self.turn.vikings_placed = 1
        return self

    def settle(self) -> Table:
        """Put every pending tile on the first free spaces of the Fjord."""
        seat = self.turn.seat
        while self.turn.pending:
            self.play(
                LoootPlaceTile(tile=self.turn.pending[0], space=free_spaces(self.player(seat))[0])
            )
        return self

    def next_turn(self, seat: int) -> Table:
        """Given: a fresh turn for `seat` (as if the other players had played theirs)."""
        self.state.turn = Turn(seat=seat)
        return self


def drawn_table(
    picture: Sequence[str],
    players: int = 2,
    market: dict[int, int] | None = None,
    to_act: int = 0,
) -> Table:
    """A game on a hand-drawn board; `market` maps ocean slots to Longship ids."""
    hands = tuple(FjordSites(port=1, altar=1, jarl_palace=1) for _ in range(players))
    faces = (1, 3, 5, 7)[:players]
    start = GameSetUp(players=players, faces=faces, sites=hands, first_seat=to_act, draws=0)
    state = evolve(None, start)
    state.board = board_from_picture(picture)
    state.stacks = initial_stacks(state.board)
    ships = market or {}
    state.market = [ships.get(slot) for slot in range(len(state.board.ocean))]
    state.bag = sorted(set(LONGSHIPS) - set(ships.values()))
    return Table(state)


def real_table(players: int = 2, seed: bytes = SEED) -> Table:
    """A game set up as the service would, on the real board."""
    chance = Chance(seed)
    return Table(fold(GAME, GAME.setup(LoootConfig(players=players), chance)), chance)
