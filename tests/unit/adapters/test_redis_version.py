"""Workers refuse a Redis too old for the commands they use, saying which version is needed."""

from __future__ import annotations

import pytest

from service.adapters.store.redis_store import MIN_REDIS_VERSION, redis_version_problem


@pytest.mark.parametrize("version", ["7.0.0", "7.0.15", "7.2.4", "8.0.1", "10.1.0"])
def test_redis_7_and_later_serve(version: str) -> None:
    assert redis_version_problem({"redis_version": version}) is None


@pytest.mark.parametrize("version", ["6.2.14", "6.0.0", "5.0.7"])
def test_an_older_redis_is_refused_with_the_version_needed(version: str) -> None:
    problem = redis_version_problem({"redis_version": version})
    assert problem is not None
    assert version in problem
    assert ".".join(map(str, MIN_REDIS_VERSION)) in problem


@pytest.mark.parametrize("info", [{}, {"redis_version": "unknown"}])
def test_a_version_that_cannot_be_read_is_reported(info: dict[str, str]) -> None:
    problem = redis_version_problem(info)
    assert problem is not None
    assert "version" in problem
