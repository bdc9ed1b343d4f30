"""A real Redis Cluster (3 masters, 3 replicas on free loopback ports) for the cluster tests,
one per test module, and one of a test's own for tests that kill a master."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from service.adapters.redis_clients import event_redis
from tests.cluster.local_cluster import LocalCluster


@pytest.fixture(scope="module")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """A running cluster; skipped, saying so, without redis-server and redis-cli."""
    if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
        pytest.skip("redis-server and redis-cli are needed for a local Redis Cluster")
    cluster = LocalCluster(Path(tmp_path_factory.mktemp("redis-cluster")))
    try:
        yield cluster.start()
    finally:
        cluster.stop()


@pytest.fixture
def fresh_cluster(tmp_path: Path) -> Iterator[LocalCluster]:
    """A cluster of the test's own that no client used yet (for tests that kill its nodes or
    measure its first connections); skipped, saying so, without redis-server and redis-cli."""
    if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
        pytest.skip("redis-server and redis-cli are needed for a local Redis Cluster")
    own = LocalCluster(tmp_path / "cluster")
    try:
        yield own.start()
    finally:
        own.stop()


@pytest.fixture(params=["one redis", "cluster"])
async def either_redis(request: pytest.FixtureRequest) -> AsyncIterator[Redis]:
    """A client of the real Redis at 6379, then of this module's cluster: a test using it runs
    on both."""
    if request.param == "cluster":
        cluster: LocalCluster = request.getfixturevalue("redis_cluster")
        redis = event_redis(cluster.url, cluster=True)
    else:
        redis = Redis.from_url("redis://127.0.0.1:6379/0")
    yield redis
    await redis.aclose()
