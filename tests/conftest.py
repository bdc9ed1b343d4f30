"""Shared test set-up: the --slow flag for long chaos runs, quiet logs from services the tests
run in-process, and fixtures many folders use."""

from __future__ import annotations

import io
import logging
from collections.abc import AsyncIterator, Iterator

import fakeredis
import pytest
import structlog

from domain.games import unregister
from service.shared.logging import configure_logging
from tests.fakes.race import RaceGame, register_race


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False, help="run long chaos runs")


def pytest_configure(config: pytest.Config) -> None:
    # An API served in a test's background thread logs every request through structlog's
    # defaults, which print to the terminal between tests: keep those to warnings and worse.
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))


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


@pytest.fixture
def log_output() -> Iterator[io.StringIO]:
    """Everything every Skald logger writes during the test (from DEBUG up), formatted as the
    service formats it; the logging set-up is restored afterwards."""
    stream = io.StringIO()
    root = logging.getLogger()
    saved_handlers, saved_level = root.handlers[:], root.level
    saved_structlog = structlog.get_config()
    configure_logging("DEBUG", stream)
    yield stream
    root.handlers[:] = saved_handlers
    root.setLevel(saved_level)
    structlog.configure(**saved_structlog)
