"""On the running service: clients that leave an event stream right after asking for it, before
or after its first bytes, leave nothing behind: nothing logged at warning level or above, and
the game's update channel without a subscriber."""

from __future__ import annotations

import gc
import logging
import socket
import time
from urllib.parse import urlsplit

import httpx
import pytest
import redis

from .conftest import REDIS_URL, LiveService
from .test_live_reads import new_seated_race

pytestmark = pytest.mark.redis

STREAMS = 40


def open_and_leave(live_service: LiveService, path: str, token: str, read: int) -> None:
    """Ask for a stream on a connection of its own, read `read` bytes of the answer, hang up."""
    address = urlsplit(live_service.url)
    assert address.hostname is not None and address.port is not None
    with socket.create_connection((address.hostname, address.port), timeout=10) as connection:
        request = f"GET {path} HTTP/1.1\r\nHost: skald\r\nAuthorization: Bearer {token}\r\n\r\n"
        connection.sendall(request.encode())
        if read:
            connection.recv(read)


def subscribers(live_service: LiveService, game_id: str) -> int:
    channel = f"{live_service.settings.key_prefix}game:{{{game_id}}}:updates"
    with redis.Redis.from_url(REDIS_URL) as direct:
        counts = dict(direct.pubsub_numsub(channel))
    return int(counts[channel.encode()])


def test_streams_left_at_once_log_nothing_and_release_their_subscription(
    live_service: LiveService, http: httpx.Client, caplog: pytest.LogCaptureFixture
) -> None:
    # Given a game, and streams of it whose clients hang up at once or after a few bytes
    game_id, tokens, _ = new_seated_race(http)
    with caplog.at_level(logging.WARNING):
        for n in range(STREAMS):
            open_and_leave(live_service, f"/v1/games/{game_id}/stream", tokens[0], read=n % 2)
        # When the server has noticed, and whatever it left is collected
        deadline = time.monotonic() + 10
        while subscribers(live_service, game_id) and time.monotonic() < deadline:
            time.sleep(0.05)
        gc.collect()
        time.sleep(0.2)
        # Then no stream holds the game's channel, and nothing was complained about
        assert subscribers(live_service, game_id) == 0
    assert [record.getMessage() for record in caplog.records] == []
