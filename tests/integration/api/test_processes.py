"""The processes `skald serve` runs: the embedded Redis and the worker pool."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import pytest
import redis

from service.adapters.embedded_redis import EmbeddedRedis, EmbeddedRedisError, running_url
from service.cli.processes import WorkerPool
from service.shared.settings import Settings

from .conftest import REDIS_URL


def test_it_runs_with_aof_fsynced_always_and_keeps_data_across_restarts(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path) as server:
        client = redis.Redis.from_url(server.url)
        assert client.config_get("appendonly") == {"appendonly": "yes"}
        assert client.config_get("appendfsync") == {"appendfsync": "always"}
        assert client.config_get("maxmemory-policy") == {"maxmemory-policy": "noeviction"}
        client.set("kept", "yes")
        client.close()
    with EmbeddedRedis(tmp_path) as server:
        assert redis.Redis.from_url(server.url).get("kept") == b"yes"


def test_a_second_server_on_the_same_data_is_refused_and_names_the_first(
    tmp_path: Path,
) -> None:
    with EmbeddedRedis(tmp_path) as first:
        assert running_url(tmp_path) == first.url
        with pytest.raises(EmbeddedRedisError, match="in use by another Skald") as refused:
            EmbeddedRedis(tmp_path).start()
        assert first.url in str(refused.value)
    assert running_url(tmp_path) is None


def test_a_missing_binary_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(EmbeddedRedisError, match="SKALD_REDIS_URL"):
        EmbeddedRedis(tmp_path, binary="no-such-redis-server").start()


def test_a_killed_worker_is_replaced_and_all_stop_with_the_pool() -> None:
    settings = Settings(redis_url=REDIS_URL, queue_name=f"it-pool-{uuid.uuid4().hex[:8]}")
    with WorkerPool(settings, 2, log_level="WARNING") as pool:
        victim = pool.processes[0]
        victim.kill()
        victim.wait()
        # The pool checks its workers once a second; a replacement must follow.
        deadline = time.monotonic() + 10
        while pool.processes[0] is victim and time.monotonic() < deadline:
            time.sleep(0.05)
        replacement = pool.processes[0]
        assert replacement is not victim
        assert replacement.poll() is None
    assert all(process.poll() is not None for process in pool.processes)
    direct = redis.Redis.from_url(REDIS_URL)
    leftovers = list(direct.scan_iter(match=f"rq:*{settings.queue_name}*"))
    if leftovers:
        direct.delete(*leftovers)
    direct.close()
