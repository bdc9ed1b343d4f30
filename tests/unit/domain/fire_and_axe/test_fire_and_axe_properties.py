"""Property: random legal play never loses a payment, a score or a piece to a pause.

A successful Raid with the conflict Runes pauses for its treasure (`TakeTreasure` or Fortune
of War); a last crewmember's Settle pauses for `ConfirmSettlement`; losses and a failed Raid
pause too. Whatever random legal play does, the game ends only with no such choice pending
(nor may the turn be declared over past one), every town taken is paid its treasure, each
in-play score (starting bonus, Trades, treasures, Saga bonuses) is what the events paid, and
goods, crew and towns are all accounted for.

Random play seldom reaches the end by the Sagas, so about half the games start one Task away
from it: the Saga deck gone and one Saga left face up, all its ports met but one, the
longship to act in that port. The player favours Tasks, so pauses come often.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest
from fire_and_axe_helpers import ScriptedDice, Table
from hypothesis import given, settings
from hypothesis import strategies as st

from contracts.base import Command, Event
from contracts.games.fire_and_axe import (
    GOODS,
    DeclareTurnOver,
    FireAndAxeConfig,
    GameEnded,
    Raid,
    RaidAgain,
    SagaCompleted,
    Settle,
    StartingBonus,
    TownTaken,
    Trade,
    Traded,
    TreasureCollected,
)
from domain.engine import fold
from domain.errors import IllegalCommand
from domain.games.fire_and_axe import GAME
from domain.games.fire_and_axe.data import (
    CREW_PER_PLAYER,
    DATA,
    GOODS_PER_TYPE,
    region_mates,
)
from domain.games.fire_and_axe.scoring import IN_PLAY_RULES
from domain.games.fire_and_axe.state import FireAndAxeState

TASKS = (Raid, RaidAgain, Trade, Settle)
TOWNS = 15
MAX_COMMANDS = 600
SAGA_IDS = sorted(DATA.sagas)


def paid(event: Event) -> tuple[int, str, int] | None:
    """(seat, scoring rule, VP) for an event that pays VP in play."""
    if isinstance(event, StartingBonus):
        return event.seat, "starting_bonus", event.points
    if isinstance(event, Traded):
        return event.seat, "trade", event.points
    if isinstance(event, TreasureCollected):
        return event.seat, "treasure", event.points
    if isinstance(event, SagaCompleted):
        return event.seat, "saga_bonus", event.points
    return None


def check_pieces(state: FireAndAxeState) -> None:
    """Every good, crewmember and town is somewhere, once."""
    goods = len(state.port_goods) + sum(len(player.goods) for player in state.players)
    assert goods + sum(state.supply.values()) + 1 == len(GOODS) * GOODS_PER_TYPE  # +1: demand
    for seat, player in enumerate(state.players):
        settled = sum(1 for owner in state.settlements.values() if owner == seat)
        assert player.crew >= 0 and player.crew + settled <= CREW_PER_PLAYER
    assert len(state.towns) + sum(len(player.towns) for player in state.players) == TOWNS


def one_task_from_the_end(table: Table, saga: int, rng: random.Random) -> None:
    """Given: the deck gone, `saga` the only one face up, met but for one port, in which the
    seat to act has its longship (crew and goods drawn)."""
    state = table.state
    state.saga_discards += state.saga_deck
    state.saga_deck = []
    state.saga_spaces = [None, saga, None]
    card = DATA.sagas[saga]
    last = rng.choice(card.ports)
    others = [seat for seat in range(len(state.players)) if seat != table.seat]
    for port in card.ports:
        if port == last:
            continue
        if card.kind == "raid" and port in state.towns:
            size, treasure = state.towns.pop(port)
            state.players[rng.choice(others)].towns.append((port, size, treasure))
        elif card.kind == "trade" and port not in state.port_goods:
            good = rng.choice([g for g in GOODS if state.supply[g] > 0])
            state.supply[good] -= 1
            state.port_goods[port] = good
        elif card.kind == "settle":
            state.settlements[port] = rng.choice(others)
    if card.kind == "settle":  # a town in the port or its region forbids settling
        for port in (last, *region_mates(last)):
            if port in state.towns:
                size, treasure = state.towns.pop(port)
                state.players[rng.choice(others)].towns.append((port, size, treasure))
    goods = [rng.choice(GOODS) for _ in range(rng.randint(0, 2))]
    table.ship(last, crew=rng.randint(1, 4), goods=goods)


def choose(state: FireAndAxeState, seat: int, rng: random.Random) -> Command:
    """A random legal command, a Task three times in four when one is legal."""
    legal = GAME.legal_commands(state, seat)
    assert legal, "the seat to act always has a command"
    tasks = [command for command in legal if isinstance(command, TASKS)]
    if tasks and rng.random() < 0.75:
        return rng.choice(tasks)
    return rng.choice(legal)


def play_out(table: Table, rng: random.Random) -> None:
    """Random legal play to the end, checking the invariants after every event."""
    state = table.state
    start = [dict(player.points) for player in state.players]
    earned: dict[tuple[int, str], int] = defaultdict(int)
    unpaid: set[tuple[int, str]] = set()
    for _ in range(MAX_COMMANDS):
        acting = GAME.to_act(state)
        if not acting:
            break
        (seat,) = acting
        if state.turn is not None and state.turn.pending is not None:
            with pytest.raises(IllegalCommand):  # nothing ends the turn past a pending choice
                GAME.decide(state, DeclareTurnOver(), seat, table.chance)
        events = GAME.decide(state, choose(state, seat, rng), seat, table.chance)
        for event in events:
            if isinstance(event, GameEnded):
                pending = state.turn.pending if state.turn else None
                assert pending is None, f"the game ended with a {pending.kind} choice pending"
                assert not unpaid, f"the game ended with towns unpaid: {sorted(unpaid)}"
            if isinstance(event, TownTaken):
                unpaid.add((event.seat, event.port))
            if isinstance(event, TreasureCollected):
                unpaid.discard((event.seat, event.port))
            if (payment := paid(event)) is not None:
                earned[payment[:2]] += payment[2]
            state = fold(GAME, [event], state)
            check_pieces(state)
    outcome = GAME.outcome(state)
    assert outcome is not None, f"no end within {MAX_COMMANDS} commands"
    for score in outcome.scores:
        for rule in IN_PLAY_RULES:
            expected = start[score.seat].get(rule, 0) + earned[score.seat, rule]
            assert score.breakdown[rule] == expected, (score.seat, rule)
        assert score.total == sum(score.breakdown.values())


# 200 examples: the derandomized run then meets a Raid that ends the game with the conflict
# Runes in play (100 did not); well under 10 s.
@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 5),
    conflict_runes=st.booleans(),
    saga=st.none() | st.sampled_from(SAGA_IDS),
)
def test_no_payment_score_or_piece_is_lost_between_a_pause_and_the_end(
    seed: int, players: int, conflict_runes: bool, saga: int | None
) -> None:
    rng = random.Random(seed)
    chance = ScriptedDice(seed.to_bytes(32, "big"))
    config = FireAndAxeConfig(players=players, conflict_runes=conflict_runes, round_limit=4)
    table = Table(fold(GAME, GAME.setup(config, chance)), chance)
    if saga is not None:
        one_task_from_the_end(table, saga, rng)
    play_out(table, rng)
