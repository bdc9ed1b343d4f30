"""Variants and rune stones under seeded random play, and `legal_commands` against `decide`.

- On hand-made boards, the rune uses listed are exactly those `decide` accepts, found by
  trying every start (or space) and target near the board.
- In seeded random games of each variant family, every legal command is accepted and every
  near miss of `candidate_commands` is refused with a `fjords.` code; across the games the near
  misses reach the rune, colour, Home and Classic refusals.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest
from fjords_helpers import Landscape, Table, build_table

from contracts.base import Command
from contracts.games.fjords import (
    FjordsConfig,
    UseHorseRune,
    UseJourneyRune,
    UseWisdomRune,
)
from domain.bots import RandomBot
from domain.chance import Chance
from domain.engine import decide, fold
from domain.errors import IllegalCommand
from domain.games.fjords import GAME
from domain.hexgrid import Hex

CHECK_EVERY = 6  # turns between exhaustive checks: every turn would be slow


def accepted(table: Table, commands: list[Command]) -> set[Command]:
    found = set()
    for command in commands:
        try:
            decide(table.game, table.state, command, 0, Chance(b"unused"))
        except IllegalCommand:
            continue
        found.add(command)
    return found


def box(radius: int) -> list[Hex]:
    return [(q, r) for q, r in product(range(-radius, radius + 6), repeat=2)]


def test_listed_rune_uses_are_exactly_the_accepted_ones() -> None:
    # Given a varied board: sea and mountain corners, a rival piece and a Friendship stone
    landscape = (
        Landscape()
        .paint((0, 0), ["SE", "NE"], "S")
        .paint((1, 0), ["SE"], "S")
        .paint((1, 1), ["S", "SE"], "M")
        .paint((2, 0), ["NE"], "M")
        .paint((0, 1), ["SW"], "M")
    )
    positions = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (3, 0), (4, 0), (3, 1), (-1, 2)]
    table = build_table(
        landscape.board(positions),
        runes=["journey", "horse", "wisdom", "friendship"],
        stones={(2, 1): "friendship"},
        longhouses={(0, 0): 0, (0, 1): 0, (4, 0): 1},
        vikings={(1, 1): 0, (3, 0): 1},
        settlement_starter=0,
    )
    spaces = box(3)
    tried: list[Command] = []
    for (sq, sr), (q, r) in product(spaces, spaces):
        tried += [UseJourneyRune(sq, sr, q, r), UseHorseRune(sq, sr, q, r)]
        tried.append(UseWisdomRune(sq, sr, q, r))
    # When every start or space and every target near the board is tried
    found = accepted(table, tried)
    # Then the listed rune uses are exactly the accepted ones, each listed once
    listed = [
        c
        for c in table.game.legal_commands(table.state, 0)
        if isinstance(c, UseJourneyRune | UseHorseRune | UseWisdomRune)
    ]
    assert len(listed) == len(set(listed))
    assert set(listed) == found
    assert {type(c) for c in found} == {UseJourneyRune, UseHorseRune, UseWisdomRune}


FAMILIES = [
    FjordsConfig(players=3, runes=("journey", "horse", "wisdom", "home")),
    FjordsConfig(players=2, variant="epic", runes=("journey", "horse", "wisdom", "home")),
    FjordsConfig(players=2, variant="classic"),
    FjordsConfig(players=4, runes=("strength", "water", "friendship")),
]


def play_checked(config: FjordsConfig, seed: int, codes: Counter[str]) -> None:
    chance = Chance(f"variant game {seed}".encode())
    state = fold(GAME, GAME.setup(config, chance))
    bot = RandomBot(seed)
    turn = 0
    while acting := GAME.to_act(state):
        seat = acting[0]
        if turn % CHECK_EVERY == 0:
            legal = GAME.legal_commands(state, seat)
            for command in legal:
                decide(GAME, state, command, seat, chance)
            legal_set = set(legal)
            for command in set(GAME.candidate_commands(state, seat)) - legal_set:
                with pytest.raises(IllegalCommand) as caught:
                    decide(GAME, state, command, seat, chance)
                assert caught.value.code.startswith("fjords.") and caught.value.message
                codes[caught.value.code] += 1
        command = bot.choose(GAME, state, seat)
        assert command is not None
        state = fold(GAME, decide(GAME, state, command, seat, chance), state)
        turn += 1
    assert GAME.outcome(state) is not None


def test_near_misses_of_every_family_are_refused_with_rune_colour_and_classic_codes() -> None:
    codes: Counter[str] = Counter()
    for index, config in enumerate(FAMILIES):
        play_checked(config, index, codes)
    expected = {
        "fjords.rune.already_used",
        "fjords.rune.not_in_game",
        "fjords.journey.no_path",
        "fjords.journey.start_without_ocean",
        "fjords.horse.no_path",
        "fjords.wisdom.no_own_piece_facing",
        "fjords.wisdom.fewer_than_two_tiles",
        "fjords.wisdom.target_not_across",
        "fjords.home.needs_longhouse",
        "fjords.colour.not_yours",
        "fjords.colour.required",
        "fjords.draw.already_drawn",
        "fjords.draw.not_classic",
        "fjords.tile.not_drawn",
        "fjords.tile.not_available",
        "fjords.longhouse.rune_stone_tile",
        "fjords.viking.rune_stone_tile",
    }
    assert expected <= set(codes), sorted(expected - set(codes))
