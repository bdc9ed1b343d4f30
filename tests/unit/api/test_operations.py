"""Health, readiness, metrics and the OpenAPI document."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient
from openapi_spec_validator import validate

from service.api import create_litestar
from service.api.openapi import openapi_document
from service.api.openapi_credentials import ANONYMOUS, base_operation_id
from service.cli import main
from service.shared.settings import Settings

from .conftest import Api

pytestmark = pytest.mark.anyio


async def test_liveness_and_readiness_with_redis_up(api: Api) -> None:
    alive = await api.client.get("/healthz")
    ready = await api.client.get("/readyz")
    assert (alive.status_code, alive.json()["status"]) == (200, "ok")
    assert (ready.status_code, ready.json()) == (200, {"status": "ok", "checks": {"redis": "ok"}})


async def test_metrics_count_requests_by_route_template(api: Api) -> None:
    # Given requests on two games and one unknown path
    for _ in range(2):
        await api.new_game()
    await api.client.get("/nowhere")
    # When Prometheus scrapes
    response = await api.client.get("/metrics")
    # Then requests are counted per route template, never per game id
    text = response.text
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    assert 'skald_http_requests_total{method="POST",route="/games",status="201"} 2.0' in text
    assert 'route="<unmatched>",status="404"' in text
    assert "skald_http_request_duration_seconds_bucket" in text
    assert "skald_sse_streams_open 0.0" in text


def test_the_openapi_document_is_valid_and_complete() -> None:
    # Given the document (the fake game is not registered: the real games are)
    document = openapi_document(create_litestar(Settings()))
    # Then it is a valid OpenAPI document
    validate(document)
    operations = [operation for path in document["paths"].values() for operation in path.values()]
    # with one unique operation id each, for generated clients
    ids = [operation["operationId"] for operation in operations]
    assert len(ids) == len(set(ids))
    # every error documented as problem+json (readiness answers its own Health)
    for operation in operations:
        for status, response in operation["responses"].items():
            if status.startswith(("4", "5")) and operation["operationId"] != "readiness":
                assert set(response["content"]) == {"application/problem+json"}
    # and each game's payload schemas present and resolvable
    assert document["x-skald-games"]
    for refs in document["x-skald-games"].values():
        for kind in ("config", "command", "event", "view"):
            assert resolve(document, refs[kind]["$ref"])


def resolve(document: dict[str, Any], ref: str) -> Any:
    node: Any = document
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


def test_seat_operations_declare_the_seat_and_the_player_token() -> None:
    document = openapi_document(create_litestar(Settings()))
    submit = document["paths"]["/v1/games/{game_id}/commands"]["post"]
    schemes = document["components"]["securitySchemes"]
    assert submit["security"] == [{"seatToken": []}, {"playerToken": []}]
    assert {name: (s["type"], s["scheme"]) for name, s in schemes.items()} == {
        name: ("http", "bearer") for name in ("seatToken", "playerToken", "adminToken")
    }


def test_every_operation_declares_the_credential_it_reads_or_none() -> None:
    # Given the document, per-game copies of the operations included
    document = openapi_document(create_litestar(Settings()))
    unclassified, declared = [], {}
    for path, item in document["paths"].items():
        for method, operation in item.items():
            name = base_operation_id(operation["operationId"])
            if "security" in operation:
                declared[name] = operation["security"]
            elif name not in ANONYMOUS:
                unclassified.append(f"{method.upper()} {path}")
    # Then each operation either says which tokens it takes or is known to take none
    assert unclassified == []
    assert declared["createGame"] == [{}, {"playerToken": []}]
    assert declared["listPlayerGames"] == [{"playerToken": []}]
    assert declared["createWebhookEndpoint"] == [{"adminToken": []}]
    assert declared["resignSeat"] == [{"seatToken": []}, {"playerToken": []}]


def test_skald_openapi_prints_the_document(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["openapi"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(json.dumps(openapi_document(create_litestar(Settings()))))


def exported_document(hash_seed: int) -> bytes:
    """What `skald openapi` prints in a process of its own, with this string hash seed."""
    environment = {**os.environ, "PYTHONHASHSEED": str(hash_seed)}
    command = [sys.executable, "-m", "service.cli", "openapi"]
    return subprocess.run(command, env=environment, capture_output=True, check=True).stdout


def test_the_served_and_the_exported_document_are_the_same_bytes() -> None:
    # Given the document the API serves
    with TestClient(create_litestar(Settings())) as client:
        served = client.get("/openapi.json").content
    # Then `skald openapi` prints the same bytes, whatever order the process hashes strings in
    for hash_seed in (1, 2):
        assert exported_document(hash_seed) == served + b"\n"


async def test_the_schema_page_renders_the_full_document_from_local_files(api: Api) -> None:
    # Given the documentation page
    page = await api.client.get("/schema")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    # Then it loads nothing from another host: every script and style is served by Skald
    sources = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert sources and all(source.startswith("/schema/assets/") for source in sources)
    for source in sources:
        asset = await api.client.get(source)
        assert (asset.status_code, bool(asset.content)) == (200, True)
    # and the document it renders is the full one, the games' schemas included
    assert '"/openapi.json"' in page.text
    full = (await api.client.get("/openapi.json")).json()
    assert (await api.client.get("/schema/openapi.json")).json() == full
    assert "FjordsView" in full["components"]["schemas"]


def operations_of(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every operation of the document by its id."""
    return {
        operation["operationId"]: operation
        for item in document["paths"].values()
        for operation in item.values()
    }


def test_each_games_operations_are_typed_by_its_own_schemas() -> None:
    document = openapi_document(create_litestar(Settings()))
    schemas = document["components"]["schemas"]
    operations = operations_of(document)
    # Each game's copy of an operation on a game names that game's messages
    submit = operations["fjordsSubmitCommand"]
    body = submit["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/FjordsSubmitCommand"}
    assert schemas["FjordsSubmitCommand"]["properties"]["command"] == {
        "$ref": "#/components/schemas/FjordsCommand"
    }
    turn = operations["loootGetTurn"]["responses"]["200"]["content"]["application/json"]
    legal = schemas["LoootTurn"]["properties"]["legal_commands"]
    assert turn["schema"] == {"$ref": "#/components/schemas/LoootTurn"}
    assert legal == {"type": "array", "items": {"$ref": "#/components/schemas/LoootCommand"}}
    # two games' commands of the same tag are two schemas, each titled by its own name
    assert schemas["FjordsPlaceTile"]["title"] == "FjordsPlaceTile"
    assert schemas["LoootPlaceTile"]["title"] == "LoootPlaceTile"
    assert schemas["LoootPlaceTile"]["properties"]["type"] == {"enum": ["PlaceTile"]}
    titles = [schema.get("title", name) for name, schema in schemas.items()]
    assert len(titles) == len(set(titles))
    # no generic `object` is left where a game's payload travels
    assert '"additionalProperties": {}, "type": "object"}' not in json.dumps(
        {name: schemas[name] for name in ("FjordsTurn", "FjordsViewEnvelope", "FjordsEventRecord")}
    )
    # and no closed tuple schema that client generators reject
    assert '"items": false' not in json.dumps(document)


def test_what_the_server_does_over_http_is_declared() -> None:
    document = openapi_document(create_litestar(Settings()))
    operations = operations_of(document)
    view = operations["getView"]
    # Conditional GET of the view
    assert {"If-None-Match"} <= {parameter["name"] for parameter in view["parameters"]}
    assert "ETag" in view["responses"]["200"]["headers"]
    assert "ETag" in view["responses"]["304"]["headers"]
    # MessagePack beside JSON, in replies and in request bodies
    assert "application/msgpack" in view["responses"]["200"]["content"]
    assert "application/msgpack" in operations["submitCommand"]["requestBody"]["content"]
    # Retry-After on every 429 and 503
    for operation in operations.values():
        for status in ("429", "503"):
            if status in operation["responses"]:
                assert "Retry-After" in operation["responses"][status]["headers"]
    # The stream's messages, each with its data's schema: a game's own stream carries that
    # game's events and view envelope
    stream = operations["fjordsStreamViews"]["responses"]["200"]
    messages = stream["content"]["text/event-stream"]["schema"]["oneOf"]
    data = {
        message["properties"]["event"]["const"]: message["properties"]["data"]["contentSchema"]
        for message in messages
    }
    assert data == {
        "event": {"$ref": "#/components/schemas/FjordsEventRecord"},
        "view": {"$ref": "#/components/schemas/FjordsViewEnvelope"},
        "patch": {"$ref": "#/components/schemas/ViewPatch"},
    }
    assert "keep-alive" in stream["description"]


async def test_every_operation_answers_under_v1_and_at_its_old_path(api: Api) -> None:
    game_id, tokens = await api.seated_game()
    seat = (await api.client.get(f"/v1/games/{game_id}/turn")).json()["to_act"][0]
    for base in ("/v1", ""):
        view = await api.client.get(f"{base}/games/{game_id}/view")
        assert view.status_code == 200
        queued = await api.client.post(
            f"{base}/games/{game_id}/commands",
            json={"command_id": f"c{base[1:]}", "command": {"type": "Move", "steps": 1}},
            headers={"authorization": f"Bearer {tokens[seat]}"},
        )
        # The outcome's location is under the path the client used
        assert queued.headers["location"] == f"{base}/games/{game_id}/commands/c{base[1:]}"
        await api.drain()
        seat = (await api.client.get(f"/v1/games/{game_id}/turn")).json()["to_act"][0]


def test_the_document_lists_each_operation_once_under_v1() -> None:
    document = openapi_document(create_litestar(Settings()))
    paths = [path for path in document["paths"] if path.startswith("/games")]
    assert paths == []
    ids = [op["operationId"] for path in document["paths"].values() for op in path.values()]
    assert len(ids) == len(set(ids))
    assert "/v1/games/{game_id}/stream-tickets" in document["paths"]


@pytest.mark.parametrize("settings_overrides", [{"cors_origins": "https://play.example"}])
async def test_cors_answers_the_allowed_origin_only(api: Api) -> None:
    preflight = {
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization",
    }
    allowed = await api.client.options(
        "/v1/games", headers={"origin": "https://play.example", **preflight}
    )
    assert allowed.status_code in (200, 204)
    assert allowed.headers["access-control-allow-origin"] == "https://play.example"
    assert "authorization" in allowed.headers["access-control-allow-headers"].lower()
    other = await api.client.get("/v1/games", headers={"origin": "https://evil.example"})
    assert "access-control-allow-origin" not in other.headers


async def test_no_cors_by_default(api: Api) -> None:
    reply = await api.client.get("/v1/games", headers={"origin": "https://play.example"})
    assert reply.status_code == 200
    assert "access-control-allow-origin" not in reply.headers


@pytest.mark.parametrize("settings_overrides", [{"compress_min_bytes": 200}])
async def test_large_replies_are_gzipped_small_ones_not(api: Api) -> None:
    for _ in range(4):
        await api.new_game(players=2)
    large = await api.client.get("/v1/games", headers={"accept-encoding": "gzip"})
    assert large.headers["content-encoding"] == "gzip"
    assert len(large.json()["games"]) >= 4  # the client undoes it
    small = await api.client.get("/healthz", headers={"accept-encoding": "gzip"})
    assert "content-encoding" not in small.headers


def unions(node: Any) -> Iterator[dict[str, Any]]:
    """Every union of named schemas in the document, nested ones included."""
    if isinstance(node, dict):
        for key in ("anyOf", "oneOf"):
            variants = node.get(key, [])
            if len(variants) > 1 and all("$ref" in variant for variant in variants):
                yield node
        for value in node.values():
            yield from unions(value)
    elif isinstance(node, list):
        for item in node:
            yield from unions(item)


def tag_of(schema: dict[str, Any], name: str) -> Any:
    """The one value a variant's tag property may take (None if it may take several)."""
    declared = schema.get("properties", {}).get(name, {})
    values = [declared["const"]] if "const" in declared else declared.get("enum", [])
    return values[0] if len(values) == 1 else None


def test_every_tagged_union_is_a_one_of_dispatched_by_its_mapping() -> None:
    document = openapi_document(create_litestar(Settings()))
    discriminated = []
    for union in unions(document):
        variants = union.get("oneOf", union.get("anyOf"))
        targets = [resolve(document, variant["$ref"]) for variant in variants]
        if "discriminator" not in union:
            # Only unions that no property can tell apart go without: every game's views
            # (no tag) or commands and events (one tag names a variant in several games)
            tags = [tag_of(target, "type") for target in targets]
            assert None in tags or len(set(tags)) < len(tags), union
            continue
        # A discriminated union says its variants exclude each other, and maps every one
        assert "anyOf" not in union
        discriminator = union["discriminator"]
        mapping = discriminator["mapping"]
        assert sorted(mapping.values()) == sorted(variant["$ref"] for variant in variants)
        # by the value its tag property holds
        for tag, target in mapping.items():
            assert tag_of(resolve(document, target), discriminator["propertyName"]) == tag
        discriminated.append(union.get("title"))
    # Every game's commands and events among them, and the stream's events
    for game in document["x-skald-games"].values():
        for kind in ("command", "event"):
            assert resolve(document, game[kind]["$ref"])["title"] in discriminated
    assert "StreamEvent" in discriminated
