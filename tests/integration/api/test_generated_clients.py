"""Clients generated from the served `/openapi.json` play whole games against a real server.

The generators are the ones a mobile team uses: openapi-python-client (a test dependency),
`@hey-api/openapi-ts` and `openapi-typescript` (npm, pinned in tests/clients/package-lock.json).
The programs are the examples of docs/clients.md, taken from the page itself. Spectral lints
the same document with the rule that every 4xx is a problem document.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from itertools import takewhile
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator

from tests.fakes.race import race_config

from .conftest import LiveService

pytestmark = pytest.mark.redis

ROOT = Path(__file__).resolve().parents[3]
CLIENTS = ROOT / "tests" / "clients"
GENERATED = CLIENTS / ".generated"
NODE_BIN = CLIENTS / "node_modules" / ".bin"
DOC = ROOT / "docs" / "clients.md"
PLAYERS = 2
SEED = 7


def example(language: str) -> str:
    """The code block of docs/clients.md marked `<!-- example: language -->`."""
    found = re.search(
        rf"<!-- example: {language} -->\n```\w+\n(.*?)\n```", DOC.read_text(), re.DOTALL
    )
    assert found, f"docs/clients.md has no {language} example"
    return found.group(1) + "\n"


def run(command: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run a tool; its output is part of the failure message when it fails."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def document(live_service: LiveService, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The document the server serves, saved to a file."""
    served = httpx.get(f"{live_service.url}/openapi.json", timeout=30)
    assert served.status_code == 200
    path = tmp_path_factory.mktemp("contract") / "openapi.json"
    path.write_bytes(served.content)
    return path


@pytest.fixture(scope="module")
def python_client(document: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The package openapi-python-client generates, importable as `skald_client`."""
    out = tmp_path_factory.mktemp("python-client")
    generated = run(
        [
            str(Path(sys.executable).parent / "openapi-python-client"),
            "generate",
            "--path",
            str(document),
            "--meta",
            "none",
            "--output-path",
            str(out / "skald_client"),
            "--config",
            str(CLIENTS / "python-client.yaml"),
            "--fail-on-warning",
        ],
        cwd=out,
    )
    assert "warning" not in (generated.stdout + generated.stderr).lower(), generated.stdout
    sys.path.insert(0, str(out))
    try:
        yield out
    finally:
        sys.path.remove(str(out))
        for name in [name for name in sys.modules if name.split(".")[0] == "skald_client"]:
            del sys.modules[name]


def load_example(directory: Path) -> ModuleType:
    """The Python example of docs/clients.md as a module."""
    path = directory / "skald_play.py"
    path.write_text(example("python"))
    spec = importlib.util.spec_from_file_location("skald_play", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_python_example_type_checks_without_a_cast(python_client: Path) -> None:
    # Given the documented example beside the generated package
    path = python_client / "skald_play_checked.py"
    path.write_text(example("python"))
    assert "cast(" not in path.read_text() and "type: ignore" not in path.read_text()
    # Then mypy --strict finds nothing in it (the package's own typing is the generator's)
    run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", path.name],
        cwd=python_client,
    )


def check_outcome(outcome: Any, players: int) -> None:
    """An outcome names every seat once, ranked, and its winners are the first ranked."""
    seats = sorted(score["seat"] for score in outcome["scores"])
    assert seats == list(range(players))
    first = [score["seat"] for score in outcome["scores"] if score["rank"] == 1]
    assert sorted(outcome["winners"]) == sorted(first) and first


@pytest.mark.parametrize("game", ["fjords", "looot"])
def test_the_generated_python_client_plays_a_whole_game(
    live_service: LiveService, python_client: Path, game: str
) -> None:
    # Given the package generated from the served document and the documented example
    play = getattr(load_example(python_client), f"play_{game}")
    # When it plays a whole game, every seat choosing among the legal commands it is sent
    outcome = play(live_service.url, PLAYERS, SEED)
    # Then the game ends with a ranked outcome, in the generated package's own types
    assert type(outcome).__module__.startswith("skald_client.models")
    check_outcome(outcome.to_dict(), PLAYERS)


def node_tools(needs: Path = NODE_BIN / "openapi-ts") -> Path:
    """The installed npm tools (installing them from the lock file when `needs` is missing),
    or a skip."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the TypeScript client and Spectral checks need it")
    if not needs.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed: cannot install tests/clients/package-lock.json")
        run([npm, "ci", "--no-audit", "--no-fund"], cwd=CLIENTS, timeout=600)
    return NODE_BIN


def test_typescript_clients_type_check_and_play_a_whole_game(
    live_service: LiveService, document: Path
) -> None:
    tools = node_tools()
    # Given both TypeScript generators' output for the served document
    shutil.rmtree(GENERATED, ignore_errors=True)
    GENERATED.mkdir()
    run([str(tools / "openapi-ts"), "-i", str(document), "-o", "hey"], cwd=GENERATED)
    run([str(tools / "openapi-typescript"), str(document), "-o", "schema.d.ts"], cwd=GENERATED)
    # and the documented program, which uses no cast
    program = example("typescript")
    assert not re.search(r"\bas\s+(?!const\b)\w|<\w+>\s*\w", program), "the example casts"
    (GENERATED / "play.ts").write_text(program)
    # When it is type-checked strictly, then run against the server
    run([str(tools / "tsc"), "-p", "tsconfig.json"], cwd=CLIENTS)
    played = run(["node", str(GENERATED / "dist" / "play.js"), live_service.url], cwd=CLIENTS)
    # Then it played a Fjords game to its end and revalidated the view (304)
    result = json.loads(played.stdout.strip().splitlines()[-1])
    check_outcome(result["outcome"], PLAYERS)
    assert result["revalidated"] == 304
    with live_service.client() as client:
        assert client.turn(result["gameId"]).finished


def spectral_errors(tools: Path, document: dict[str, Any], directory: Path) -> list[str]:
    """Spectral's errors on `document` (Spectral's OpenAPI rules and Skald's)."""
    path = directory / "openapi.json"
    path.write_text(json.dumps(document))
    linted = subprocess.run(
        [str(tools / "spectral"), "lint", str(path), "--ruleset", "spectral.yaml", "-f", "json"],
        cwd=CLIENTS,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    results = json.loads(linted.stdout[linted.stdout.index("[") :])
    return [
        f"{result['code']} at {result['path']}" for result in results if result["severity"] == 0
    ]


def test_the_document_passes_the_linter_with_every_4xx_a_problem(
    document: Path, tmp_path: Path
) -> None:
    tools = node_tools()
    served = json.loads(document.read_text())
    # The served document has no error
    assert spectral_errors(tools, served, tmp_path) == []
    # while one 4xx answered as plain JSON is one (the rule does catch it)
    broken = copy.deepcopy(served)
    refused = broken["paths"]["/v1/games/{game_id}/commands"]["post"]["responses"]["422"]
    refused["content"] = {"application/json": refused["content"]["application/problem+json"]}
    errors = spectral_errors(tools, broken, tmp_path)
    assert len(errors) == 1 and errors[0].startswith("client-errors-are-problems"), errors


def sse_messages(lines: Iterator[str]) -> Iterator[dict[str, str]]:
    """The messages of an event stream as an SSE client parses them (comments and the
    opening `retry:` skipped)."""
    while True:
        fields = dict(line.partition(": ")[::2] for line in takewhile(bool, lines) if ":" in line)
        if "event" in fields:
            yield fields


def test_a_games_stream_sends_the_messages_the_document_declares(
    live_service: LiveService, document: Path
) -> None:
    # Given the declared stream of the race game's own path, and a seated race game
    declared = json.loads(document.read_text())
    stream = declared["paths"]["/v1/race/games/{game_id}/stream"]["get"]["responses"]["200"]
    schema = {**stream["content"]["text/event-stream"]["schema"], **declared}
    data_schemas = {
        variant["properties"]["event"]["const"]: {
            **variant["properties"]["data"]["contentSchema"],
            **declared,
        }
        for variant in schema["oneOf"]
    }
    assert set(data_schemas) == {"event", "view", "patch"}
    with httpx.Client(base_url=live_service.url, timeout=10) as http:
        created = http.post("/games", json={"game": "race", "config": race_config(2, 20)})
        game_id = created.json()["game_id"]
        tokens = [
            http.post(f"/games/{game_id}/seats", json={"name": name}).json()["token"]
            for name in ("Ada", "Bo")
        ]
        seat = http.get(f"/games/{game_id}/turn").json()["to_act"][0]
        auth = {"authorization": f"Bearer {tokens[seat]}"}
        # When the seat to act opens its stream, then moves
        with http.stream("GET", f"/v1/race/games/{game_id}/stream", headers=auth) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            messages = sse_messages(response.iter_lines())
            sent = [next(messages)]
            move = {"command_id": "m1", "command": {"type": "Move", "steps": 1}}
            assert http.post(f"/games/{game_id}/commands", json=move, headers=auth).is_success
            while len(sent) < 2 or sent[-1]["event"] == "event":
                sent.append(next(messages))
    # Then each message is one the document declares, its data of its declared schema
    for message in sent:
        Draft202012Validator(schema).validate(message)
        Draft202012Validator(data_schemas[message["event"]]).validate(json.loads(message["data"]))
    # The first is the whole view, naming the seated players; then the move's events; then
    # the view's change
    view = json.loads(sent[0]["data"])
    assert (sent[0]["event"], view["game_id"], str(view["version"])) == (
        "view",
        game_id,
        sent[0]["id"],
    )
    assert [player["name"] for player in view["players"]] == ["Ada", "Bo"]
    assert {message["event"] for message in sent[1:-1]} == {"event"}
    assert sent[-1]["event"] in ("view", "patch")
