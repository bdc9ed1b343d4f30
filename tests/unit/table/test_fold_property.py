"""Folding a table's recorded events gives the table its decisions kept: at every command of
any game under any clock policy (hypothesis draws the game, the policy and the seed)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games import game_names, get_game
from tests.unit.table.tables import POLICIES, opened, refolded, snapshot, step

GAMES = game_names()


@settings(max_examples=30, deadline=None)
@given(
    name=st.sampled_from(GAMES),
    policy=st.sampled_from(sorted(POLICIES)),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_folding_the_recorded_events_gives_the_table_kept(
    name: str, policy: str, seed: int
) -> None:
    game = get_game(name)
    clock = POLICIES[policy]
    if clock.on_timeout == "skip" and not game.may_pass:
        clock = POLICIES["bot"]
    rng = random.Random(seed)
    played = opened(game, seed.to_bytes(32, "big"), clock)
    for command_no in range(25):
        if played.table.finished:
            break
        step(played, rng, command_no)
        assert snapshot(refolded(played)) == snapshot(played.table)
