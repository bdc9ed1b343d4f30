"""Shared test set-up: the --slow flag for long chaos runs, and fixtures many folders use."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import fakeredis
import pytest

from domain.games import unregister
from tests.fakes.race import RaceGame, register_race


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False, help="run long chaos runs")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    skip_slow = pytest.mark.skip(reason="long run: pass --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


@pytest.fixture
def anyio_backend() -> str:
    """Async tests run on asyncio (through anyio's pytest plugin)."""
    return "asyncio"


@pytest.fixture
def race() -> Iterator[RaceGame]:
    """The fake race game, registered for the test (tests/fakes/race.py)."""
    game = register_race()
    yield game
    unregister(game.name)


@pytest.fixture
async def fake_redis() -> AsyncIterator[fakeredis.aioredis.FakeRedis]:
    """A fakeredis server of the test's own: nothing leaks between tests."""
    client = fakeredis.aioredis.FakeRedis(server=fakeredis.FakeServer())
    yield client
    await client.aclose()
