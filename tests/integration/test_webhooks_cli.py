"""`skald webhooks` against the real Redis: add, list, dead-letters, replay, remove."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from redis.asyncio import Redis

from contracts.webhooks import DeadLetter
from service import bootstrap
from service.shared.settings import Settings

from .conftest import worker_env

pytestmark = [pytest.mark.anyio, pytest.mark.redis]


def skald(settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "service.cli", "webhooks", *args],
        env=worker_env(settings),
        capture_output=True,
        text=True,
        timeout=60,
    )


# A public address written as such: the CLI checks it without resolving a name.
HOOK = "https://93.184.215.14/h"


async def test_the_operator_manages_endpoints_and_dead_letters(core_settings: Settings) -> None:
    added = skald(core_settings, "add", HOOK, "--kind", "your_turn")
    assert added.returncode == 0, added.stderr
    endpoint = json.loads(added.stdout)
    assert endpoint["secret"].startswith("whsec_") and endpoint["kinds"] == ["your_turn"]
    listed = json.loads(skald(core_settings, "list").stdout)["endpoints"]
    assert [e["id"] for e in listed] == [endpoint["id"]] and "secret" not in listed[0]
    bad = skald(core_settings, "add", HOOK, "--secret", "plain")
    assert bad.returncode != 0 and "whsec_" in (bad.stderr + bad.stdout)
    private = skald(core_settings, "add", "http://10.1.2.3/h")
    assert private.returncode != 0 and "private" in private.stderr, private.stderr

    redis = Redis.from_url(core_settings.redis_url)
    store = bootstrap.webhook_store(redis, core_settings)
    letter = DeadLetter(
        "msg_1", endpoint["id"], "ada", '{"type":"notifications"}', 8, "HTTP 500", 1
    )
    await store.finish(endpoint["id"], "ada", 1, letter)
    shown = skald(core_settings, "dead-letters")
    assert "msg_1" in shown.stdout and "1 dead letter(s)" in shown.stdout
    replayed = skald(core_settings, "replay", "msg_1")
    assert replayed.returncode == 0 and "1 delivery" in replayed.stdout
    assert await store.dead_letters() == []
    assert (await store.in_flight(endpoint["id"], "ada")) is not None  # queued again, same id
    assert skald(core_settings, "remove", endpoint["id"]).returncode == 0
    assert skald(core_settings, "remove", endpoint["id"]).returncode != 0
    await redis.aclose()
