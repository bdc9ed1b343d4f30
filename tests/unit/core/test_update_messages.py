"""The messages a commit publishes on a game's channel, as listeners read them (`Update`)."""

from __future__ import annotations

import msgspec
import pytest

from service.core.ports.notifier import Update


def test_a_bare_version_is_an_update_without_views() -> None:
    # When a commit with no listeners publishes only the version
    update = Update.parse(b"42")
    # Then listeners learn the version and must read any view themselves
    assert update.version == 42
    assert update.view_for(0) is None
    assert update.view_for(None) is None


def test_each_viewer_takes_its_own_view_and_no_other() -> None:
    # Given a message carrying the public view and the views of seats 0 and 1
    views = {
        "p": msgspec.json.encode({"seat": None, "hand": []}),
        0: msgspec.json.encode({"seat": 0, "hand": [3, 7]}),
        1: msgspec.json.encode({"seat": 1, "hand": [1]}),
    }
    lines = [b"7"] + [f"json:{viewer}".encode() + b"\t" + body for viewer, body in views.items()]
    # When it is parsed
    update = Update.parse(b"\n".join(lines))
    # Then each seat gets exactly its own view, the public view goes to spectators
    assert update.version == 7
    assert update.view_for(0) == views[0]
    assert update.view_for(1) == views[1]
    assert update.view_for(None) == views["p"]
    # And a seat the message did not cover gets nothing (it reads the store instead)
    assert update.view_for(2) is None


@pytest.mark.parametrize(
    "data",
    [b"", b"seven", b"7\njson:0 no tab here", b"7.5"],
    ids=["empty", "not a number", "view line without a tab", "not an integer"],
)
def test_a_message_that_is_not_an_update_is_refused(data: bytes) -> None:
    with pytest.raises(ValueError):
        Update.parse(data)
