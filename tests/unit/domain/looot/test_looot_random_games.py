"""Seeded random games for 2, 3 and 4 players, checking invariants at every command.

RandomBot seats play to the end. Along the way: every command the bot picks is accepted and
every legal command would be; a sample of candidate commands outside `legal_commands` is
refused; views do not change when only the bag changes; and at the end the events fold to the
live state and everyone has placed 13 Vikings.
"""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest
from looot_helpers import SEED, real_table

from contracts.base import Event
from contracts.games.looot import LoootConfig
from domain.bots import RandomBot
from domain.chance import Chance, draw_below
from domain.engine import decide, fold
from domain.errors import IllegalCommand
from domain.games import get_game
from domain.games.looot import GAME
from domain.games.looot.state import LoootState

SAMPLES_PER_COMMAND = 8


def play_to_the_end(players: int, seed: int) -> tuple[list[Event], LoootState, Counter[str]]:
    chance = Chance(bytes([seed]) * 32)
    events = GAME.setup(LoootConfig(players=players), chance)
    state = fold(GAME, events)
    bot = RandomBot(seed)
    probe = bytes([seed, 1]) * 16
    probes = 0
    refusals: Counter[str] = Counter()
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_commands(state, seat)
        for command in legal:
            decide(GAME, state, command, seat, chance)  # accepted: raises otherwise
        omitted = [c for c in GAME.candidate_commands(state, seat) if c not in set(legal)]
        for _ in range(SAMPLES_PER_COMMAND):
            command = omitted[draw_below(probe, probes, len(omitted))]
            probes += 1
            with pytest.raises(IllegalCommand) as refused:
                decide(GAME, state, command, seat, chance)
            refusals[refused.value.code] += 1
        for viewer in (None, *range(players)):
            scrambled = GAME.scramble_hidden(state, viewer, Chance(probe))
            assert scrambled.bag != state.bag or not state.bag
            assert GAME.view(scrambled, viewer) == GAME.view(state, viewer)
        command = bot.choose(GAME, state, seat)
        assert command is not None
        new_events = decide(GAME, state, command, seat, chance)
        events += new_events
        state = fold(GAME, new_events, state)
    return events, state, refusals


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_random_game_keeps_every_invariant(players: int) -> None:
    events, state, refusals = play_to_the_end(players, seed=players)

    assert fold(GAME, events) == state
    decoded = msgspec.json.decode(msgspec.json.encode(events), type=list[GAME.event_type])
    assert decoded == events
    placed = Counter(seat for seats in state.vikings.values() for seat in seats)
    assert placed == dict.fromkeys(range(players), 13)
    assert all(player.vikings_left == 0 for player in state.players)
    assert GAME.outcome(state) is not None
    assert all(GAME.legal_commands(state, seat) == [] for seat in range(players))
    assert all(code.startswith("looot.") for code in refusals)


def test_copies_are_independent() -> None:
    state = real_table(2).state
    copy = GAME.copy_state(state)

    copy.players[0].tiles[(3, 3)] = "axe"
    copy.players[0].shields.clear()
    copy.vikings[(0, 0)] = (1,)
    copy.bag.pop()
    copy.market[0] = None
    assert copy.turn is not None
    copy.turn.pending.append("wood")

    assert state == real_table(2).state
    assert copy != state


def test_the_view_shows_the_table_but_not_the_bag() -> None:
    state = real_table(3).state

    public = GAME.view(state, None)
    seat_view = GAME.view(state, 1)

    assert public.bag_size == 25
    assert "bag" not in msgspec.structs.asdict(public)
    assert msgspec.structs.replace(seat_view, viewer=None) == public
    assert [slot.longship.id for slot in public.ocean if slot.longship] == state.market
    assert len(public.land) == 25 * 3 + 4


def test_looot_is_registered_and_draws_as_text() -> None:
    state = real_table(2, seed=SEED).state

    text = GAME.render_text(state)

    assert get_game("looot") is GAME
    assert "Ocean:" in text
    assert f"Seat {state.first_seat} to act (place_viking)" in text
