"""The operator's commands that act on Redis directly work on a Redis Cluster too: they take
the composition root's client (`SKALD_REDIS_CLUSTER=1`), not a client of the one node named
by the URL (which answers MOVED for keys of the others' slots and scans only its own)."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from redis.crc import key_slot

from service import bootstrap
from service.shared.settings import Settings
from tests.cluster.local_cluster import LocalCluster
from tests.fakes.race import race_config
from tests.integration.conftest import PLUGINS, REDIS_URL, clean_up, worker_env

pytestmark = [pytest.mark.anyio, pytest.mark.redis]


@pytest.fixture
def cluster_settings(redis_cluster: LocalCluster, tmp_path: Path) -> Iterator[Settings]:
    run = uuid.uuid4().hex[:10]
    settings = Settings(
        redis_url=redis_cluster.url,
        redis_cluster=True,
        queue_url=REDIS_URL,  # RQ on its own Redis: the shared test server
        key_prefix=f"it-cli-{run}:",
        queue_name=f"it-cli-{run}",
        plugins=PLUGINS,
        data_dir=str(tmp_path / "data"),
    )
    yield settings
    clean_up(msgspec.structs.replace(settings, redis_url=REDIS_URL))


def skald(settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args],
        env=worker_env(settings),
        capture_output=True,
        text=True,
        timeout=120,
    )


def elsewhere(cluster: LocalCluster, key: str) -> str:
    """The URL of a master that does not serve `key`'s slot."""
    slot = key_slot(key.encode())
    for port, ranges in cluster.masters().items():
        if not any(start <= slot <= end for start, end in ranges):
            return f"redis://127.0.0.1:{port}/0"
    raise AssertionError("one master serves every slot")


async def test_webhook_endpoints_are_managed_on_the_cluster(
    redis_cluster: LocalCluster, cluster_settings: Settings
) -> None:
    # Given the URL of a master that does not hold the endpoints
    client = bootstrap.event_client(cluster_settings)
    key = bootstrap.webhook_store(client, cluster_settings).endpoints_key
    await client.aclose()
    cluster_settings = cluster_settings.with_redis_url(elsewhere(redis_cluster, key))

    # When the operator registers an endpoint on the cluster
    # (a public address literal: the host check needs no lookup)
    added = skald(cluster_settings, "webhooks", "add", "https://93.184.215.14/h")

    # Then the service's own client of the cluster finds it, and so does the command's list
    assert added.returncode == 0, added.stderr[-2000:]
    endpoint_id = json.loads(added.stdout)["id"]
    client = bootstrap.event_client(cluster_settings)
    try:
        endpoints = await bootstrap.webhook_store(client, cluster_settings).endpoints()
    finally:
        await client.aclose()
    assert [endpoint.id for endpoint in endpoints] == [endpoint_id]
    listed = skald(cluster_settings, "webhooks", "list")
    assert [e["id"] for e in json.loads(listed.stdout)["endpoints"]] == [endpoint_id]


async def test_notification_feeds_are_rebuilt_from_every_master(
    cluster_settings: Settings,
) -> None:
    # Given a game in every drain shard, so on every master
    facade = await bootstrap.connect(cluster_settings)
    try:
        for _ in range(cluster_settings.drain_shards):
            await facade.commands.create_game("race", race_config(2, 12))
    finally:
        await facade.close()

    # When the operator rebuilds every feed
    rebuilt = skald(cluster_settings, "notifications", "rebuild")

    # Then every game of the cluster was read
    assert rebuilt.returncode == 0, rebuilt.stderr[-2000:]
    assert f"from {cluster_settings.drain_shards} game(s)" in rebuilt.stdout
