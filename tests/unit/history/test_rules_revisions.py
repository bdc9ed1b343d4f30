"""Games stored before rules revisions: their first event has no `revision` (revision 1). They
keep the rules they were created under, so the service still applies their commands, replays
them and proves them fair, under the rules version they were created with."""

from __future__ import annotations

from typing import Any

import pytest

from contracts.base import Event, GameConfig
from domain.chance import Chance
from domain.engine import Game, fold
from domain.games import get_game
from domain.games.fire_and_axe import setup as fire_and_axe_setup
from domain.games.fire_and_axe.game import FireAndAxeGame
from domain.games.landnam import setup as landnam_setup
from domain.games.landnam.game import LandnamGame
from service import bootstrap
from service.adapters.store.redis_store import RedisEventStore
from service.core.codec import GameCodec
from service.facade.history_side import HistoryService
from service.history.disclosure import SPECTATOR
from service.shared.settings import Settings
from tests.unit.history.conftest import PREFIX
from tests.unit.history.playthrough import Sent, StoreDriver, play_through_store, seed_of
from tests.unit.history.tamper import edit_events, stored_event

pytestmark = pytest.mark.anyio

SETUP_EVENT = 2  # version 1 is GameCreated


class LandnamBeforeRevisions(LandnamGame):
    """Landnám as the service set games up before rules revisions were recorded."""

    rules_version = "1"  # what main's code registered, and its stored games record

    def setup(self, config: GameConfig, chance: Chance) -> list[Event]:
        """The opening under revision 1's rules."""
        return landnam_setup.setup(config, chance, revision=1)


class FireAndAxeBeforeRevisions(FireAndAxeGame):
    """Fire & Axe as the service set games up before rules revisions were recorded."""

    rules_version = "2015/provisional-1"

    def setup(self, config: GameConfig, chance: Chance) -> list[Event]:
        """The opening under revision 1's rules."""
        return fire_and_axe_setup.setup(config, chance, revision=1)


OLD_GAMES: dict[str, Game] = {
    "landnam": LandnamBeforeRevisions(),
    "fire-and-axe": FireAndAxeBeforeRevisions(),
}


def without_revision(event: dict[str, Any]) -> dict[str, Any]:
    """The setup event as the service stored it then: no revision field."""
    assert event.pop("revision") == 1
    return event


async def stored_before_revisions(
    store: RedisEventStore, name: str, game_id: str, stop_after: int | None = None
) -> None:
    """A seeded game created and played as before, its setup event in the old format."""
    old = OLD_GAMES[name]
    config = old.example_configs()[0]
    await play_through_store(
        store, old, config, seed_of(61), game_id, stop_after=stop_after, opened_by=GameCodec(old)
    )
    await edit_events(store.redis, PREFIX, game_id, {SETUP_EVENT: without_revision}, rechain=True)
    assert "revision" not in await stored_event(store.redis, PREFIX, game_id, SETUP_EVENT)


def test_the_rules_version_strings_are_those_games_were_stored_under() -> None:
    # The service refuses a stored game whose rules version is not the registered one: a rule
    # change is a revision of the rules, never a new version, so stored games still play
    assert get_game("landnam").rules_version == "1"
    assert get_game("fire-and-axe").rules_version == "2015/provisional-1"


@pytest.mark.parametrize("name", ["landnam", "fire-and-axe"])
async def test_a_finished_game_stored_before_revisions_replays_and_verifies(
    redis_store: RedisEventStore, name: str
) -> None:
    # Given a game played to the end before revisions, under its rules version then
    await stored_before_revisions(redis_store, name, "old")
    service = bootstrap.history(redis_store.redis, Settings(key_prefix=PREFIX), redis_store)
    # Then it replays to its end
    frame = await service.replay("old", SPECTATOR)
    assert frame.finished and frame.outcome is not None
    # And every check holds: the fairness check re-derives it under revision 1's rules
    report = await service.verify("old")
    assert report.ok, report
    fairness = await HistoryService(redis_store).fairness("old")
    assert fairness.status == "fair", fairness
    assert fairness.commands_rederived and fairness.commands_rederived > 0


@pytest.mark.parametrize("name", ["landnam", "fire-and-axe"])
async def test_a_game_in_progress_stored_before_revisions_takes_its_next_command(
    redis_store: RedisEventStore, name: str
) -> None:
    # Given a game stored mid-play before revisions
    await stored_before_revisions(redis_store, name, "playing", stop_after=12)
    history = await HistoryService(redis_store).history("playing")
    game = get_game(name)
    state = fold(game, (event for _, event in history.game_events(1, history.last_version)))
    assert state.revision == 1
    # When its next player sends a legal command (under revision 1's rules)
    seat = game.to_act(state)[0]
    command = game.legal_commands(state, seat)[0]
    await StoreDriver(redis_store, name).send("playing", Sent("next", seat, command, False))
    # Then it is applied: the stream grew
    after = await HistoryService(redis_store).history("playing")
    assert after.last_version > history.last_version
