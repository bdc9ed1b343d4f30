"""A whole game driven over HTTP by bots equals the same seeded game played in-process."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.bots import RandomBot, SeatPicker
from domain.chance import Chance
from domain.engine import decide, fold
from domain.games import get_game
from service.cli.client import SkaldClient
from service.cli.demo_command import bot_seed, play, seat_picker_seed

from .conftest import LiveService

pytestmark = pytest.mark.redis
SEED = 7


def as_json(value: Any) -> Any:
    """A value as it reads after a trip through JSON (tuples become lists)."""
    return msgspec.json.decode(msgspec.json.encode(value))


def all_events(client: SkaldClient, game_id: str) -> list[dict[str, Any]]:
    """Every event of a game, paging through the events endpoint."""
    events: list[dict[str, Any]] = []
    after = 0
    while True:
        page = client.events(game_id, after=after)
        events += [record.event for record in page.events]
        if not page.events or page.events[-1].version >= page.last_version:
            return events
        after = page.events[-1].version


def play_in_process(game_name: str, config: dict[str, Any], seed: bytes) -> tuple[Any, list[Any]]:
    """The same game, same bots, no service: (final state, every game event)."""
    game = get_game(game_name)
    chance = Chance(seed)
    events = list(game.setup(msgspec.convert(config, game.config_type), chance))
    state = fold(game, events)
    bots: dict[int, RandomBot] = {}
    picker = SeatPicker(seat_picker_seed(SEED))
    while game.outcome(state) is None:
        seat = picker.pick(game.to_act(state))
        bot = bots.setdefault(seat, RandomBot(bot_seed(SEED, seat)))
        command = bot.choose(game, state, seat)
        assert command is not None
        decided = decide(game, state, command, seat, chance)
        events += decided
        state = fold(game, decided, state)
    return state, events


@pytest.mark.parametrize(
    ("game_name", "config"),
    [
        ("race", {"players": 3}),
        ("fjords", {"players": 4}),
        # Several seats act at once (trade offers, the Althing): the seat picker decides.
        ("landnam", {"players": 4, "max_rounds": 3}),
    ],
)
def test_a_game_over_http_equals_the_same_seeded_game_in_process(
    live_service: LiveService, game_name: str, config: dict[str, Any]
) -> None:
    # Given a game played to its end by seeded bots through the API and the worker
    with live_service.client() as client:
        game_id, _, final = play(client, game_name, config, SEED)
        stream = all_events(client, game_id)
        public_view = client.view(game_id)
    created, *game_events, revealed = stream
    assert (created["type"], revealed["type"]) == ("GameCreated", "SeedRevealed")
    # When the same game is played in-process from the revealed seed with the same bots
    state, expected_events = play_in_process(
        game_name, created["config"], bytes.fromhex(revealed["seed_hex"])
    )
    game = get_game(game_name)
    # Then the events, the final view and the scores are the same
    assert game_events == as_json(expected_events)
    assert public_view.view == as_json(game.view(state, None))
    assert final.finished
    assert final.outcome == game.outcome(state)
