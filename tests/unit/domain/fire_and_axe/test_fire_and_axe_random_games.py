"""Seeded random games: `legal_commands` is exactly what `decide` accepts, views hide what they
must, and every game ends."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest
from fire_and_axe_helpers import new_table

from contracts.base import Event
from contracts.games.fire_and_axe import FireAndAxeConfig, RuneDrawn
from domain.bots import RandomBot
from domain.chance import Chance, draw_below
from domain.engine import fold
from domain.errors import IllegalCommand
from domain.games import get_game
from domain.games.fire_and_axe import GAME
from domain.games.fire_and_axe.state import FireAndAxeState

SAMPLES_PER_COMMAND = 6


def play_to_the_end(
    players: int, conflict: bool, seed: int
) -> tuple[list[Event], FireAndAxeState, Counter[str]]:
    chance = Chance(bytes([seed]) * 32)
    config = FireAndAxeConfig(players=players, conflict_runes=conflict, round_limit=8)
    events = GAME.setup(config, chance)
    state = fold(GAME, events)
    bot = RandomBot(seed)
    probe = bytes([seed, 1]) * 16
    probes = 0
    refusals: Counter[str] = Counter()
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_commands(state, seat)
        assert legal, "the seat to act always has a command"
        for command in legal:
            GAME.decide(state, command, seat, chance)  # accepted: raises otherwise
        omitted = [c for c in GAME.candidate_commands(state, seat) if c not in set(legal)]
        for _ in range(SAMPLES_PER_COMMAND):
            command = omitted[draw_below(probe, probes, len(omitted))]
            probes += 1
            with pytest.raises(IllegalCommand) as refused:
                GAME.decide(state, command, seat, chance)
            refusals[refused.value.code] += 1
        command = bot.choose(GAME, state, seat)
        assert command is not None
        new_events = GAME.decide(state, command, seat, chance)
        events += new_events
        state = fold(GAME, new_events, state)
    return events, state, refusals


@pytest.mark.parametrize(("players", "conflict"), [(3, True), (4, False), (5, True)])
def test_legal_commands_are_exactly_what_decide_accepts(players: int, conflict: bool) -> None:
    events, state, refusals = play_to_the_end(players, conflict, seed=players)

    assert fold(GAME, events) == state
    decoded = msgspec.json.decode(msgspec.json.encode(events), type=list[GAME.event_type])
    assert decoded == events
    assert state.ended and GAME.outcome(state) is not None
    assert all(GAME.legal_commands(state, seat) == [] for seat in range(players))
    assert all(code.startswith(("fire_and_axe.", "turn.")) for code in refusals)


def test_copies_are_independent() -> None:
    state = new_table().state
    copy = GAME.copy_state(state)
    copy.players[0].runes.append("recruits")
    copy.towns.clear()
    copy.saga_deck.pop()
    assert copy.turn is not None
    copy.turn.tried.add("Rome")
    assert state == new_table().state and copy != state


def test_a_seat_sees_its_runes_only_and_nobody_sees_treasures_or_decks() -> None:
    state = new_table(3).state
    public = GAME.view(state, None)
    mine = GAME.view(state, 1)
    assert all(player.runes is None for player in public.seats)
    assert mine.seats[1].runes == tuple(state.players[1].runes)
    assert mine.seats[0].runes is None and mine.seats[0].rune_count == 1
    encoded = msgspec.json.encode(public)
    assert b"treasure" not in encoded  # no unraided town shows one
    assert public.saga_deck == 15 and public.rune_deck == 30


def test_drawn_runes_are_shown_to_their_seat_only() -> None:
    event = RuneDrawn(seat=1, rune="war_cry", action=True)
    assert GAME.visible_event(event, 1) == event
    assert GAME.visible_event(event, 0) == RuneDrawn(seat=1, rune="", action=True)
    assert GAME.visible_event(event, None) == RuneDrawn(seat=1, rune="", action=True)


def test_scrambling_changes_only_what_the_seat_may_not_see() -> None:
    state = new_table(4).state
    for viewer in (None, 0, 3):
        scrambled = GAME.scramble_hidden(state, viewer, Chance(b"probe"))
        assert scrambled != state
        assert GAME.view(scrambled, viewer) == GAME.view(state, viewer)
        if viewer is not None:
            assert scrambled.players[viewer].runes == state.players[viewer].runes


def test_fire_and_axe_is_registered_by_its_dashed_name_and_draws_as_text() -> None:
    state = new_table().state
    assert get_game("fire-and-axe") is GAME
    text = GAME.render_text(state)
    assert "Era 1" in text and "Seat 0" in text and "to act" in text
