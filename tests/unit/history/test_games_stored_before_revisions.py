"""Games recorded by the code before rules revisions (commit 0048fda, `stored/record.py`) still
re-derive event for event, as the fairness check re-derives them: each bot's move chosen again
among today's legal commands, each command decided again. They are the seeded games whose
stored events the rule changes of decisions 17-20 (Fire & Axe) and 27-28 (Landnám) would have
re-derived differently without revisions: a new legal command at a first move, a refused
second War Cry, and so on."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.chance import Chance
from domain.engine import decide, fold, setup_as_recorded
from domain.games import get_game
from tests.unit.history.stored.record import make_bot

RECORDED = Path(__file__).parent / "stored" / "before_revisions.msgpack.gz"
GAMES: list[dict[str, Any]] = msgspec.msgpack.decode(gzip.decompress(RECORDED.read_bytes()))


@pytest.mark.parametrize("recorded", GAMES, ids=lambda g: f"{g['game']}-{g['seed'][-2:].hex()}")
def test_a_game_recorded_before_revisions_re_derives_event_for_event(
    recorded: dict[str, Any],
) -> None:
    # Given a game the old code played and stored
    game = get_game(recorded["game"])
    config = msgspec.convert(recorded["config"], game.config_type)
    seed, chance = recorded["seed"], Chance(recorded["seed"])
    events = msgspec.msgpack.Decoder(game.event_type)
    commands = msgspec.json.Decoder(game.command_type)
    opening = [events.decode(data) for data in recorded["opening"]]
    # Then its opening is the one its revision (1: none recorded) sets up
    assert getattr(opening[0], "revision", None) == 1
    assert setup_as_recorded(game, config, chance, opening) == opening
    state = fold(game, opening)
    bots = [make_bot(game, kind, seed, seat) for seat, kind in enumerate(recorded["bots"])]
    for number, (seat, command, stored) in enumerate(recorded["steps"]):
        # And each bot chooses its recorded move among the legal commands
        assert bots[seat].choose(game, state, seat) == commands.decode(command), number
        # And each command gives the events stored
        again = decide(game, state, commands.decode(command), seat, chance)
        assert [msgspec.msgpack.encode(event) for event in again] == stored, number
        state = fold(game, again, state)
    assert game.outcome(state) is not None
