"""Seeded random games for 2, 3 and 4 players, checked against the protocol's promises.

Every bot command is accepted; a sample of the candidate commands that `legal_commands` omits is
refused; folding the events gives the live state; views do not change when only the bag does;
every game ends with an outcome and no one left to act.
"""

from __future__ import annotations

import pytest

from contracts.base import Event
from contracts.games.fjords import FjordsConfig, PlaceViking
from domain.bots import RandomBot
from domain.chance import Chance, draw_below
from domain.engine import decide, fold
from domain.errors import IllegalCommand
from domain.games.fjords import GAME
from domain.games.fjords.state import FjordsState

SAMPLE_EVERY = 7  # check refusals and views on every 7th turn: all turns would be slow
REFUSALS_PER_CHECK = 25


def play_checked(players: int, seed: int) -> tuple[list[Event], FjordsState]:
    chance = Chance(f"random game {players} {seed}".encode())
    events = GAME.setup(FjordsConfig(players=players), chance)
    state = fold(GAME, events)
    bot = RandomBot(seed)
    for turn in range(1000):
        acting = GAME.to_act(state)
        if not acting:
            break
        seat = acting[0]
        if turn % SAMPLE_EVERY == 0:
            check_refusals(state, seat, seed * 1000 + turn)
            check_views_hide_the_bag(state, turn)
        for other in range(players):
            if other != seat:
                assert GAME.legal_commands(state, other) == []
        command = bot.choose(GAME, state, seat)
        assert command is not None, "the seat to act always has a legal command"
        before = GAME.copy_state(state)
        new = decide(GAME, state, command, seat, chance)
        assert state == before, "decide never changes the state"
        events += new
        state = fold(GAME, new, state)
    else:
        pytest.fail("the game did not end")
    assert fold(GAME, events) == state
    return events, state


def check_refusals(state: FjordsState, seat: int, salt: int) -> None:
    legal = set(GAME.legal_commands(state, seat))
    others = [c for c in GAME.candidate_commands(state, seat) if c not in legal]
    for pick in range(min(REFUSALS_PER_CHECK, len(others))):
        command = others[draw_below(b"refusals", salt * 100 + pick, len(others))]
        with pytest.raises(IllegalCommand) as caught:
            decide(GAME, state, command, seat, Chance(b"unused"))
        assert caught.value.code.startswith("fjords.") and caught.value.message
    # Seats not to act are refused whatever they send
    for other in range(state.players):
        if other != seat and legal:
            with pytest.raises(IllegalCommand):
                decide(GAME, state, next(iter(legal)), other, Chance(b"unused"))


def check_views_hide_the_bag(state: FjordsState, turn: int) -> None:
    for viewer in [None, *range(state.players)]:
        scrambled = GAME.scramble_hidden(state, viewer, Chance(f"scramble {turn}".encode()))
        assert GAME.view(scrambled, viewer) == GAME.view(state, viewer)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_random_games_keep_the_protocols_promises(players: int, seed: int) -> None:
    events, state = play_checked(players, seed)
    result = GAME.outcome(state)
    assert result is not None and GAME.to_act(state) == []
    placed = sum(1 for e in events if type(e).__name__ == "VikingPlaced")
    assert sum(s.breakdown["vikings"] for s in result.scores) == placed
    assert len(result.winners) == 1 and min(s.rank for s in result.scores) == 1


def test_every_legal_command_is_accepted_late_in_exploration() -> None:
    # Given a 4-player game 40 tiles in, and the first Settlement turn of the same game
    chance = Chance(b"late exploration")
    state = fold(GAME, GAME.setup(FjordsConfig(players=4), chance))
    bot = RandomBot(5)
    checked_phases = set()
    while state.phase != "ended":
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_commands(state, seat)
        if (len(state.board) == 43 and "exploration" not in checked_phases) or (
            state.phase == "settlement" and "settlement" not in checked_phases
        ):
            checked_phases.add(state.phase)
            # Then each one is accepted
            for command in legal:
                decide(GAME, state, command, seat, chance)
            assert legal and (state.phase == "exploration" or isinstance(legal[0], PlaceViking))
        choice = bot.choose(GAME, state, seat)
        assert choice is not None
        state = fold(GAME, decide(GAME, state, choice, seat, chance), state)
    assert checked_phases == {"exploration", "settlement"}
