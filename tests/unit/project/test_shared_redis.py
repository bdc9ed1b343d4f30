"""Tests share the Redis `REDIS_URL` names with whoever else uses it (other engineers' runs,
other suites): no test flushes its data or its scripts. A test that needs Redis to lose its
scripts or its keys starts one of its own (EmbeddedRedis, a LocalCluster) or runs on
fakeredis; this check finds a flush in a test file that uses none of them."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[2]
FLUSH = re.compile(r"script_flush\(|flushall\(|flushdb\(|[\"']FLUSH(ALL|DB)?[\"']", re.IGNORECASE)
OWN_REDIS = re.compile(r"EmbeddedRedis|LocalCluster|fakeredis|fake_redis")


def test_no_test_flushes_a_redis_it_did_not_start() -> None:
    offenders = [
        str(path.relative_to(TESTS))
        for path in sorted(TESTS.rglob("*.py"))
        if path != Path(__file__).resolve()
        and FLUSH.search(text := path.read_text())
        and not OWN_REDIS.search(text)
    ]
    assert offenders == []
