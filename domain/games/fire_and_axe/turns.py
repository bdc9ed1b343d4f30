"""The end of a turn, the next turn's start, the Final Round tokens and the end of the game."""

from __future__ import annotations

from contracts.games.fire_and_axe import (
    FinalRoundTokenPlaced,
    GameEnded,
    TurnBegan,
    TurnPassed,
    Wrecked,
)
from domain.games.fire_and_axe.state import sits_out
from domain.games.fire_and_axe.tape import Tape
from domain.kernel.seats import next_seat

FINAL_ROUND_TOKENS = 3


def wreck(tape: Tape, seat: int) -> None:
    """The last crewmember is gone: goods discarded, longship to the Wintering Zone."""
    tape.emit(Wrecked(seat=seat, goods=tuple(tape.state.players[seat].goods)))


def pass_turn(tape: Tape) -> None:
    """End the current turn and begin the next player's (decision 12 for the tokens).

    The holder of the Final Round tokens places one at the start of each of its later turns,
    also when sitting out; the game ends after the turn in which the third is placed, or when
    every player sits out; decision E1: also after the round limit's last full round.
    """
    seat = tape.turn.seat
    last_turn = tape.turn.last_turn
    tape.emit(TurnPassed(seat=seat))
    if last_turn:
        tape.emit(GameEnded(reason="final_rounds"))
        return
    state = tape.state
    players = len(state.players)
    for _ in range(players):
        seat = next_seat(seat, players)
        if seat == state.first_seat and state.round == state.round_limit:
            tape.emit(GameEnded(reason="round_limit"))
            return
        out = sits_out(tape.state, seat)
        tape.emit(TurnBegan(seat=seat, sits_out=out))
        if tape.state.final_holder == seat and tape.state.final_placed < FINAL_ROUND_TOKENS:
            tape.emit(FinalRoundTokenPlaced(seat=seat, placed=tape.state.final_placed + 1))
        if not out:
            return
        last_turn = tape.turn.last_turn
        tape.emit(TurnPassed(seat=seat))
        if last_turn:
            tape.emit(GameEnded(reason="final_rounds"))
            return
    tape.emit(GameEnded(reason="everyone_sits_out"))
