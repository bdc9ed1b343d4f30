"""The AsyncAPI document of the live channels: valid for the AsyncAPI parser (npm), served at
/asyncapi.json as `skald asyncapi` prints it, and naming every frame the socket sends."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.api.asyncapi import LIVE_FRAMES
from tests.asyncapi_messages import SOCKET, AsyncApiMessages

from .conftest import LiveService
from .test_generated_clients import CLIENTS, node_tools

pytestmark = pytest.mark.redis
PARSER = CLIENTS / "node_modules" / "@asyncapi" / "parser"


@pytest.fixture(scope="module")
def document(live_service: LiveService) -> dict[str, Any]:
    served = httpx.get(f"{live_service.url}/asyncapi.json", timeout=30)
    assert served.status_code == 200
    assert served.headers["content-type"].startswith("application/json")
    found: dict[str, Any] = served.json()
    return found


def test_the_document_is_valid_for_the_asyncapi_parser(
    document: dict[str, Any], tmp_path: Path
) -> None:
    node_tools(needs=PARSER)
    path = tmp_path / "asyncapi.json"
    path.write_text(json.dumps(document))
    parsed = subprocess.run(
        ["node", "validate-asyncapi.mjs", str(path)],
        cwd=CLIENTS,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    lines = [json.loads(line) for line in parsed.stdout.splitlines() if line.strip()]
    diagnostics = [line for line in lines if "severity" in line]
    assert parsed.returncode == 0 and diagnostics == [], parsed.stderr or diagnostics
    assert lines[-1] == {"channels": 3, "messages": 12}


def test_every_frame_kind_the_socket_sends_and_reads_is_a_message(
    document: dict[str, Any],
) -> None:
    channel = document["channels"][SOCKET]
    names = {
        document["components"]["messages"][ref["$ref"].rsplit("/", 1)[1]]["name"]
        for ref in channel["messages"].values()
    }
    assert names == {"hello", "command", "outcome", "problem", *LIVE_FRAMES}


def test_a_frame_that_breaks_its_message_is_caught(document: dict[str, Any]) -> None:
    messages = AsyncApiMessages(document)
    turn = {"game_id": "g", "version": 3, "seat": 0, "to_act": [0], "legal_commands": []}
    good = {"type": "turn", "version": 3, "data": {**turn, "finished": False}}
    messages.check_frame(good)
    with pytest.raises(AssertionError, match="finished"):
        messages.check_frame({**good, "data": turn})  # `finished` missing
    with pytest.raises(AssertionError, match="declares no 'teleport'"):
        messages.check_frame({"type": "teleport"})


def test_the_served_document_is_the_one_skald_asyncapi_prints(tmp_path: Path) -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "service.cli", "asyncapi", "-o", str(tmp_path / "a.json")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert printed.returncode == 0, printed.stderr
    document = json.loads((tmp_path / "a.json").read_text())
    assert document["asyncapi"].startswith("3.")
    assert set(document["channels"]) == {"gameSocket", "gameStream", "notificationStream"}
