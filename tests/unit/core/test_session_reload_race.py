"""A session reloaded while another worker commits holds the state of the head it names.

`load_session` reads the head, then the events after the session's version. A commit landing
in between (the game's lease is free: a drain round rebuilding views after its commit, or a
lease that expired under load) used to be folded into the state while the session took the
older head's version: a state one batch ahead of its version. Cached, the next batch folded
that commit a second time and stored views no rebuild from the events gives (seen once as a
finished game's public view differing from a rebuild, under the worker chaos test).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import fakeredis
import msgspec
import pytest

from domain.engine import fold
from domain.games import unregister
from domain.table import is_service_event
from service.core.codec import codec_for
from service.core.pipeline.drain import Drainer
from service.core.pipeline.session import GameSession, SessionCache, load_session
from service.core.ports.records import Head
from tests.fakes.poison import EVOLVE_FAILS, NAME, register_poisoned_race
from tests.fakes.race import RaceGame, race_config
from tests.unit.facade.harness import Harness, make_harness

pytestmark = pytest.mark.anyio


class CommitAfterHead:
    """The worker's store, where another worker commits right after the head is read (once):
    the interleaving a busy machine makes now and then, made to happen every time."""

    def __init__(self, store: Any, other_worker: Callable[[], Awaitable[None]]) -> None:
        self._store = store
        self._other_worker: Callable[[], Awaitable[None]] | None = other_worker

    async def head(self, game_id: str) -> Head | None:
        head: Head | None = await self._store.head(game_id)
        if self._other_worker is not None:
            other, self._other_worker = self._other_worker, None
            await other()
        return head

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


@pytest.fixture
async def harness(
    race: RaceGame, fake_redis: fakeredis.aioredis.FakeRedis
) -> AsyncIterator[Harness]:
    register_poisoned_race()
    made = make_harness(fake_redis)
    yield made
    await made.skald.close()
    unregister(NAME)


async def play_a_move(harness: Harness, game_id: str, command_id: str) -> None:
    """The seat to act plays its first legal move, drained by the harness's own worker."""
    seat = (await harness.skald.reads.turn(game_id, None)).to_act[0]
    options = (await harness.skald.reads.turn(game_id, seat)).legal_commands
    await harness.skald.commands.submit(game_id, seat, command_id, options[0], "r")
    await harness.run_jobs()


async def folded_view(harness: Harness, game_id: str, version: int) -> Any:
    """The public view of the state folded from the stored events up to `version`."""
    codec = codec_for(NAME)
    stored = await harness.skald.store.read(game_id, limit=version)
    events = [codec.decode_event(e.data) for e in stored]
    state = fold(codec.game, (e for e in events if not is_service_event(e)))
    return msgspec.to_builtins(codec.game.view(state, None))


def view_of(session: GameSession) -> Any:
    return msgspec.to_builtins(session.game.view(session.state, None))


async def test_a_commit_between_head_and_events_is_not_folded_in(harness: Harness) -> None:
    game_id = (await harness.skald.commands.create_game(NAME, race_config())).game_id
    await play_a_move(harness, game_id, "m0")
    racing = CommitAfterHead(harness.skald.store, lambda: play_a_move(harness, game_id, "m1"))
    session = await load_session(racing, game_id)
    head = await harness.skald.store.head(game_id)
    assert head is not None and head.version > session.version  # the other commit landed
    assert view_of(session) == await folded_view(harness, game_id, session.version)


async def test_views_rebuilt_after_a_poison_never_get_ahead_of_their_version(
    harness: Harness,
) -> None:
    # Given a game, and a worker whose rebuild of views (after a batch whose rules failed)
    # reads the head just before another worker commits the next move
    skald = harness.skald
    game_id = (await skald.commands.create_game(NAME, race_config())).game_id
    await play_a_move(harness, game_id, "m0")
    racing = CommitAfterHead(skald.store, lambda: play_a_move(harness, game_id, "m1"))
    own = harness.drainer
    worker = Drainer(racing, own.views, None, None, SessionCache(8), 64, 30_000)
    seat = (await skald.reads.turn(game_id, None)).to_act[0]
    poison = {"type": "Move", "steps": EVOLVE_FAILS}
    await skald.commands.submit(game_id, seat, "poison", poison, "r")
    # When that worker drains the poison (refused; its views rebuilt from the store)
    await worker.drain_round([game_id])
    refused = await skald.commands.outcome(game_id, "poison", seat=seat)
    assert (refused.status, refused.code) == ("refused", "engine.error")
    # and then the game's next move, from the session it kept
    seat = (await skald.reads.turn(game_id, None)).to_act[0]
    options = (await skald.reads.turn(game_id, seat)).legal_commands
    await skald.commands.submit(game_id, seat, "m2", options[0], "r")
    await worker.drain_round([game_id])
    assert (await skald.commands.outcome(game_id, "m2", seat=seat)).status == "applied"
    # Then its stored views (and the whole record) equal a rebuild from the events
    verified = await skald.history.verify(game_id)
    assert verified.ok, [c for c in verified.checks if c.status == "failed"]
