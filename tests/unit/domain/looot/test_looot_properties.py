"""Property: random legal play never loses a tile, a score or a piece to a pause.

A Viking's gained tiles wait on the turn (`pending`) until the player puts each on the Fjord
(or the full Fjord loses them). Whatever random legal play does, a turn ends, and so the game,
only with no tile pending (EndTurn is refused while one is); every tile gained is placed or
lost, never dropped; each player places all 13 Vikings; every building tile taken left its
stack; and the final scores are what the events alone say: tiles placed times their values
with the filled Longships' bonuses, the sites and the Trophy the events paid, 5 less per
Longship taken and never filled.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contracts.base import Event
from contracts.games.looot import (
    EndTurn,
    LongshipFilled,
    LongshipTaken,
    LoootConfig,
    LoootTilePlaced,
    LoootVikingPlaced,
    SiteCompleted,
    Tile,
    TilesLost,
    TrophyClaimed,
    TurnEnded,
)
from domain.chance import Chance
from domain.engine import decide, fold
from domain.errors import IllegalCommand
from domain.games.looot import GAME
from domain.games.looot.components import (
    BASE_VALUES,
    LONGSHIPS,
    UNFILLED_LONGSHIP_PENALTY,
    VIKINGS_PER_PLAYER,
)
from domain.games.looot.evolve import initial_stacks
from domain.games.looot.state import LoootState
from domain.games.looot.vikings import captured_tiles

MAX_COMMANDS = 3000


class Ledger:
    """What the events gave, placed, lost and paid, per seat, kept apart from the state."""

    def __init__(self, players: int) -> None:
        self.gained: list[Counter[Tile]] = [Counter() for _ in range(players)]
        self.placed: list[Counter[Tile]] = [Counter() for _ in range(players)]
        self.lost: list[Counter[Tile]] = [Counter() for _ in range(players)]
        self.paid = [0] * players  # construction sites and Trophies
        self.taken: list[set[int]] = [set() for _ in range(players)]
        self.filled: list[set[int]] = [set() for _ in range(players)]
        self.buildings_taken = 0

    def record(self, event: Event) -> None:
        """Add one event's part."""
        match event:
            case LoootVikingPlaced(seat=seat, resources=resources):
                self.gained[seat].update(resources)
            case LoootTilePlaced(seat=seat, tile=tile):
                self.placed[seat][tile] += 1
            case TilesLost(seat=seat, tiles=tiles):
                self.lost[seat].update(tiles)
            case SiteCompleted(seat=seat, points=points) | TrophyClaimed(seat=seat, points=points):
                self.paid[seat] += points
            case LongshipTaken(seat=seat, longship=longship):
                self.taken[seat].add(longship)
            case LongshipFilled(seat=seat, longship=longship):
                self.filled[seat].add(longship)
        if tiles := captured_tiles(event):
            self.gained[event.seat].update(tiles)  # type: ignore[attr-defined]
            self.buildings_taken += len(tiles)

    def score(self, seat: int) -> int:
        """The seat's final score from the events alone."""
        bonus: Counter[Tile] = Counter()
        for ship in self.filled[seat]:
            bonus[LONGSHIPS[ship].boosts] += LONGSHIPS[ship].bonus
        tiles = sum((BASE_VALUES[t] + bonus[t]) * n for t, n in self.placed[seat].items())
        unfilled = len(self.taken[seat] - self.filled[seat])
        return tiles + self.paid[seat] - UNFILLED_LONGSHIP_PENALTY * unfilled


def check_pause_holds(state: LoootState, seat: int, chance: Chance) -> None:
    """With tiles pending, nothing ends the turn: EndTurn is refused."""
    if state.turn is not None and state.turn.pending:
        with pytest.raises(IllegalCommand):
            decide(GAME, state, EndTurn(), seat, chance)


def check_turn_end(state: LoootState, ledger: Ledger) -> None:
    """A turn ends with every tile its Vikings gained placed or lost."""
    assert state.turn is not None
    assert not state.turn.pending, f"the turn ended with tiles pending: {state.turn.pending}"
    for seat in range(len(state.players)):
        assert ledger.gained[seat] == ledger.placed[seat] + ledger.lost[seat], seat


@settings(max_examples=50, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_no_tile_score_or_piece_is_lost_between_a_pause_and_the_end(
    seed: int, players: int
) -> None:
    rng = random.Random(seed)
    chance = Chance(seed.to_bytes(32, "big"))
    state = fold(GAME, GAME.setup(LoootConfig(players=players), chance))
    stacked = sum(state.stacks.values())
    assert stacked == sum(initial_stacks(state.board).values())
    ledger = Ledger(players)
    for _ in range(MAX_COMMANDS):
        acting = GAME.to_act(state)
        if not acting:
            break
        (seat,) = acting
        check_pause_holds(state, seat, chance)
        command = rng.choice(GAME.legal_commands(state, seat))
        for event in decide(GAME, state, command, seat, chance):
            ledger.record(event)
            if isinstance(event, TurnEnded):
                check_turn_end(state, ledger)
            state = fold(GAME, [event], state)
    outcome = GAME.outcome(state)
    assert outcome is not None, f"no end within {MAX_COMMANDS} commands"
    assert all(player.vikings_left == 0 for player in state.players)
    assert sum(len(state.vikings[space]) for space in state.vikings) == players * VIKINGS_PER_PLAYER
    assert sum(state.stacks.values()) + ledger.buildings_taken == stacked
    for score in outcome.scores:
        assert len(state.players[score.seat].tiles) == ledger.placed[score.seat].total()
        assert score.total == ledger.score(score.seat), score.seat
