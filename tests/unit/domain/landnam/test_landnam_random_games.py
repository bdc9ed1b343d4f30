"""Seeded random games: several seats act at once, every seat in `to_act` has exactly the
commands `decide` accepts, and random play reaches every part of the rules."""

from __future__ import annotations

import pytest

from contracts.base import Event
from contracts.games.landnam import LandnamConfig
from domain.bots import RandomBot, SeatPicker
from domain.chance import Chance
from domain.engine import fold
from domain.errors import IllegalCommand
from domain.games.landnam import GAME
from domain.games.landnam.state import LandnamState


def play(
    players: int, max_rounds: int, seed: int, full_check: bool
) -> tuple[list[Event], LandnamState, int]:
    """A random game; (events, final state, moves where several seats could act)."""
    chance = Chance(seed.to_bytes(32, "big"))
    events = GAME.setup(LandnamConfig(players=players, max_rounds=max_rounds), chance)
    state = fold(GAME, events)
    bots = {seat: RandomBot(seed * 10 + seat) for seat in range(players)}
    picker = SeatPicker(seed)
    crowded = 0
    while seats := GAME.to_act(state):
        crowded += len(seats) > 1
        if full_check:
            for seat in seats:
                legal = GAME.legal_commands(state, seat)
                assert legal, f"seat {seat} must act but has no legal command"
                for command in GAME.candidate_commands(state, seat):
                    try:
                        GAME.decide(state, command, seat, chance)
                    except IllegalCommand:
                        assert command not in legal, command
                    else:
                        assert command in legal, command
        seat = picker.pick(seats)
        command = bots[seat].choose(GAME, state, seat)
        assert command is not None
        new = GAME.decide(state, command, seat, chance)
        events += new
        state = fold(GAME, new, state)
    return events, state, crowded


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_acting_seat_has_exactly_the_commands_decide_accepts(players: int) -> None:
    _, state, crowded = play(players, max_rounds=3, seed=players, full_check=True)
    assert GAME.outcome(state) is not None
    assert crowded > 0


def test_random_play_reaches_every_part_of_the_rules() -> None:
    # Given a few seeded random games of each size
    seen: set[str] = set()
    for players in (3, 4, 5):
        events, _, _ = play(players, max_rounds=25, seed=players + 10, full_check=False)
        seen |= {type(event).__name__ for event in events}
    # Then exploration, chases, harvests, trades, builds and the Althing's suits all happened
    wanted = {
        "Explored", "StepSpent", "Chased", "HarvestPaid", "NumberAged", "TradeOffered",
        "TradeAnswered", "StockTraded", "BuildDeclared", "CaseTried", "AidAsked",
        "SuitDecided", "AlthingClosed", "FatePlayed", "WindowPassed",
    }  # fmt: skip
    assert wanted <= seen, wanted - seen
