"""Settings from the environment."""

from __future__ import annotations

import pytest

from service.shared.settings import Settings


def test_settings_come_from_skald_variables_with_types_converted() -> None:
    settings = Settings.from_env(
        {"SKALD_REDIS_URL": "redis://r:1/2", "SKALD_MAX_WAIT_S": "2.5", "SKALD_BATCH_SIZE": "8"}
    )

    assert settings.redis_url == "redis://r:1/2"
    assert (settings.max_wait_s, settings.batch_size) == (2.5, 8)
    assert settings.queue_redis_url == "redis://r:1/2"  # the queue defaults to the same Redis


def test_the_queue_may_live_on_its_own_redis() -> None:
    settings = Settings.from_env({"SKALD_QUEUE_URL": "redis://q"}).with_redis_url("redis://e")

    assert (settings.redis_url, settings.queue_redis_url) == ("redis://e", "redis://q")


def test_a_bad_value_fails_at_start_with_its_name() -> None:
    with pytest.raises(ValueError, match="batch_size"):
        Settings.from_env({"SKALD_BATCH_SIZE": "many"})


def test_plugins_are_a_comma_separated_list() -> None:
    settings = Settings.from_env({"SKALD_PLUGINS": " tests.fakes.race , other.module,"})

    assert settings.plugin_modules == ["tests.fakes.race", "other.module"]
