"""The `skald` command's own behaviour (the end-to-end runs are in tests/e2e)."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.cli import build_parser, main
from service.cli.demo_command import demo_config


def test_worker_without_any_redis_explains_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("SKALD_REDIS_URL", raising=False)
    monkeypatch.setenv("SKALD_DATA_DIR", str(tmp_path))
    assert main(["worker"]) == 1
    assert "set SKALD_REDIS_URL" in capsys.readouterr().err


def test_demo_options_become_the_games_config_fields() -> None:
    args = build_parser().parse_args(
        ["demo", "--players", "3", "--variant", "epic", "--runes", "home,water", "--preset", "p"]
    )
    assert demo_config(args) == {
        "players": 3,
        "variant": "epic",
        "runes": ["home", "water"],
        "preset": "p",
    }


def test_demo_leaves_unset_options_to_the_game() -> None:
    assert demo_config(build_parser().parse_args(["demo", "--players", "4"])) == {"players": 4}


def test_every_command_has_help() -> None:
    with pytest.raises(SystemExit) as shown:
        main(["--help"])
    assert shown.value.code == 0
