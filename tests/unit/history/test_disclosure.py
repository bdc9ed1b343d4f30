"""No replay or audit of a game in progress shows a seat what only another seat may see.

The oracle is the one tests/conformance uses: `game.scramble_hidden(state, seat, chance)`
changes only what `seat` may not see, so anything served to that seat must be the same for
the scrambled state. For the race, whose seats hold secret boosts, a second oracle changes the
other seats' secrets in the stored record itself: nothing served to the seat may change.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from contracts.base import GameConfig
from domain.chance import Chance
from domain.games import game_names, get_game
from service.adapters.store.redis_store import RedisEventStore
from service.core.ports.event_store import EventStore
from service.facade.history_side import HistoryService
from service.history.audit import audit_command, audit_version
from service.history.disclosure import OPERATOR, SPECTATOR, Audience
from service.history.record import GameHistory
from service.history.replay import replay_frame
from service.shared.errors import Forbidden
from tests.fakes.race import RaceConfig
from tests.unit.history.conftest import PREFIX
from tests.unit.history.playthrough import PlayedGame, play_through_store, seed_of
from tests.unit.history.tamper import edit_events

pytestmark = pytest.mark.anyio

PROBE = Chance(b"scramble-probe")
MOVES_BEFORE_CHECK = 12


def plain(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


def cases() -> list[Any]:
    params = [pytest.param("race", RaceConfig(players=3, target=60), id="race")]
    for name in game_names():
        if name != "race":
            params.append(pytest.param(name, get_game(name).example_configs()[0], id=name))
    return params


async def game_in_progress(store: EventStore, name: str, config: GameConfig) -> PlayedGame:
    played = await play_through_store(
        store, get_game(name), config, seed_of(31), "g1", stop_after=MOVES_BEFORE_CHECK
    )
    assert not played.finished
    return played


def everything_served(history: GameHistory, audience: Audience) -> list[Any]:
    """Every replay frame and audit the audience can ask for (as its own seat's view)."""
    served: list[Any] = []
    for version in range(1, history.last_version + 1):
        served.append(replay_frame(history, audience, at=version, seat=audience.seat))
        served.append(audit_version(history, version, audience))
    served += [
        audit_command(history, step.seat, step.command_id, audience) for step in history.steps
    ]
    return served


def audiences(players: int) -> list[Audience]:
    return [SPECTATOR, *(Audience(seat) for seat in range(players))]


@pytest.mark.parametrize(("name", "config"), cases())
async def test_every_view_served_during_play_is_blind_to_what_the_seat_may_not_see(
    store: EventStore, name: str, config: GameConfig
) -> None:
    # Given a game in progress
    played = await game_in_progress(store, name, config)
    game = played.game
    history = await HistoryService(store).history("g1")

    # The oracle is asked about complete tables only, as in tests/conformance: part-way
    # through the opening a game's scramble_hidden may not apply (looot's draws from a full
    # bag of Longships, which it assumes never happens).
    opening = min(step.version_before for step in history.steps)

    def blind(version: int, viewer: int | None, seat: int | None) -> Any:
        # What `seat`'s view is when everything `viewer` may not see is changed.
        state = played.states[version]
        if version < opening:
            return plain(game.view(state, seat))
        return plain(game.view(game.scramble_hidden(state, viewer, PROBE), seat))

    for audience in audiences(config.players):
        viewer = audience.seat
        # When it is replayed and audited at every version, and every command audited
        for version in range(2, history.last_version + 1):
            frame = replay_frame(history, audience, at=version, seat=viewer)
            # Then its view is the same whatever the others' secrets are
            assert frame.view == blind(version, viewer, viewer), (audience, version)
        for version in range(1, history.last_version + 1):
            audits = [audit_version(history, version, audience)]
            step = history.step_at(version)
            if step is not None:
                audits.append(audit_command(history, step.seat, step.command_id, audience))
            for audit in audits:
                before = audit.version_before
                if before >= 2:
                    assert audit.public_view_before == blind(before, viewer, None)
                own = audit.command is not None and audit.command.seat == viewer
                if audit.seat_view_before is not None:
                    assert own and audit.seat_view_before == blind(before, viewer, viewer)
                # And another seat's command, legal alternatives and refusal stay its own
                if audit.command is not None and not own:
                    assert audit.command.command is None and audit.command.request_id is None
                    assert audit.legal_alternatives is None and audit.refusal is None
                    assert audit.withheld
    if name == "race":
        # (the oracle can fail: scrambling for seat 0 changes seat 1's view while its boost
        # is still secret)
        assert any(
            game.view(game.scramble_hidden(state, 0, PROBE), 1) != game.view(state, 1)
            for state in played.states.values()
            if state is not None
        )


@pytest.mark.parametrize(("name", "config"), cases())
async def test_events_served_during_play_are_only_what_the_game_lets_the_seat_see(
    store: EventStore, name: str, config: GameConfig
) -> None:
    played = await game_in_progress(store, name, config)
    history = await HistoryService(store).history("g1")
    hook = getattr(played.game, "visible_event", None)
    for audience in audiences(config.players):
        for output in everything_served(history, audience):
            records = list(getattr(output, "events", []))
            for move in getattr(output, "moves", []):
                records += move.events
            for record in records:
                # Then each event is the game's own redacted copy for that seat (GameCreated
                # aside), a game without the hook shows none, and no chain value is given
                event = history.event(record.version)
                if record.event["type"] != "GameCreated":
                    assert hook is not None
                    assert record.event == plain(hook(event, audience.seat))
                assert record.hash == ""


@pytest.mark.parametrize(("name", "config"), cases())
async def test_nothing_served_during_play_holds_the_seed_or_a_chain_value(
    store: EventStore, name: str, config: GameConfig
) -> None:
    played = await game_in_progress(store, name, config)
    history = await HistoryService(store).history("g1")
    secrets = [played.seed.hex(), *(event.hash.hex() for event in history.stored)]
    for audience in audiences(config.players):
        for output in everything_served(history, audience):
            text = msgspec.json.encode(output).decode()
            assert not [secret for secret in secrets if secret in text], (audience, output)


async def test_another_seats_view_is_forbidden_until_the_game_ends(store: EventStore) -> None:
    await game_in_progress(store, "race", RaceConfig(players=3, target=60))
    history = await HistoryService(store).history("g1")
    for audience in (SPECTATOR, Audience(0)):
        with pytest.raises(Forbidden) as refused:
            replay_frame(history, audience, seat=1)
        assert refused.value.code == "seat.forbidden"
    assert replay_frame(history, Audience(1), seat=1).view is not None
    assert replay_frame(history, OPERATOR, seat=1).view is not None


async def test_once_the_game_is_over_everything_is_shown(store: EventStore) -> None:
    played = await play_through_store(
        store, get_game("race"), RaceConfig(players=2, target=12), seed_of(32), "g1"
    )
    history = await HistoryService(store).history("g1")
    other = next(sent for sent in played.sent if sent.seat == 1 and not sent.refused)
    audit = audit_command(history, other.seat, other.command_id, SPECTATOR)
    assert audit.command is not None and audit.command.command == plain(other.command)
    assert audit.legal_alternatives and audit.seat_view_before is not None
    assert all(record.hash for record in audit.events)
    assert audit.withheld == []
    frame = replay_frame(history, Audience(0), seat=1)
    assert frame.view == plain(played.game.view(played.states[played.last_version], 1))


async def test_a_seats_replay_and_audits_do_not_change_when_other_seats_secrets_do(
    redis_store: RedisEventStore,
) -> None:
    # Given a race in progress, and everything seat 0 and a spectator are served of it
    await game_in_progress(redis_store, "race", RaceConfig(players=3, target=60))
    service = HistoryService(redis_store)
    before = await service.history("g1")
    watchers = [SPECTATOR, Audience(0), OPERATOR]
    served = {w: msgspec.json.encode(everything_served(before, w)) for w in watchers}

    # When the secret boosts dealt to seats 1 and 2 are different in the stored record
    def other_boost(event: dict[str, Any]) -> dict[str, Any]:
        return {**event, "value": event["value"] % 3 + 1}

    dealt = {
        version: other_boost
        for version, event in enumerate(before.events, 1)
        if type(event).__name__ == "BoostDealt" and event.seat != 0
    }
    assert len(dealt) == 2
    await edit_events(redis_store.redis, PREFIX, "g1", dealt, rechain=True)
    after = await service.history("g1")
    # Then seat 0 and the spectator are served exactly the same bytes as before
    for watcher in (SPECTATOR, Audience(0)):
        assert msgspec.json.encode(everything_served(after, watcher)) == served[watcher]
    # (while the operator, who sees everything, does see the difference)
    assert msgspec.json.encode(everything_served(after, OPERATOR)) != served[OPERATOR]
