"""The OpenAPI document: Litestar's (from the routes and API Structs), typed by every game.

Litestar documents the routes; `openapi_games` adds each registered game's schemas and its own
typed copy of every operation on a game, `openapi_http` what the server does over HTTP that
Litestar cannot see (MessagePack, ETag, Retry-After, problems, the stream's messages). The
`x-skald-games` extension still maps each game to its payloads: `{game: {config, command,
event, view: $ref}}`. `/openapi.json`, `/schema/openapi.json` and `skald openapi` serve it.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import metadata
from typing import Any

import msgspec
from litestar import Litestar
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme

from contracts.api import Request
from contracts.stream import Clock

from .openapi_credentials import SCHEMES, declare_credentials
from .openapi_games import (
    GAME_PAYLOADS,
    add_game_payloads,
    per_game_operations,
    ref,
    typed_messages,
)
from .openapi_http import declare_bounds, declare_http
from .openapi_stream import declare_stream
from .routes.per_game import FACADE_STATE
from .schema_site import render_plugins


def openapi_config() -> OpenAPIConfig:
    """Litestar's OpenAPI settings for the Skald API."""
    try:
        version = metadata.version("skald")
    except metadata.PackageNotFoundError:
        version = "0.0.0"
    return OpenAPIConfig(
        title="Skald",
        version=version,
        description=(
            "Turn-based board games for mobile clients. Bodies are JSON, or MessagePack with "
            "`Content-Type`/`Accept: application/msgpack`. Errors are RFC 9457 problems "
            "(`application/problem+json`) with a stable `code`. Each game's operations, under "
            "`/<game>/games/{game_id}/...`, are typed by that game's schemas (config, command, "
            "event, view); the shared `/games/{game_id}/...` ones by the union of every game's."
        ),
        components=Components(
            security_schemes={
                name: SecurityScheme(type="http", scheme="bearer", description=about)
                for name, about in SCHEMES.items()
            }
        ),
        path="/schema",
        render_plugins=render_plugins(cached_openapi_json),
    )


def openapi_document(app: Litestar) -> dict[str, Any]:
    """The API's OpenAPI document as a dict, every game's schemas and operations included."""
    document: dict[str, Any] = app.openapi_schema.to_schema()
    schemas: dict[str, Any] = document.setdefault("components", {}).setdefault("schemas", {})
    _close_request_bodies(schemas)
    games = add_game_payloads(schemas)
    carrying = typed_messages(schemas, games)
    declare_stream(document)
    per_game_operations(document, games, carrying)
    declare_http(document)
    declare_credentials(document)
    declare_bounds(document, app.state[FACADE_STATE].settings)
    document["x-skald-games"] = {
        name: {kind: refs[kind] for kind in ("rules_version", *GAME_PAYLOADS)}
        for name, refs in games.items()
    }
    document["x-skald-stream-events"] = ref("StreamEvent")
    document["tags"] = _tags(document, games)
    dispatched = innermost_first(document, _tagged_unions_as_one_of)
    closed: dict[str, Any] = innermost_first(dispatched, _without_closed_tuple)
    return closed


def _tagged_unions_as_one_of(node: dict[str, Any]) -> dict[str, Any]:
    """msgspec writes a tagged union as `anyOf` with a discriminator; its variants exclude
    each other (each has its own tag), which `oneOf` says, and generators dispatch on a
    `oneOf`'s discriminator (openapi-generator's C# and Java clients ignore it under `anyOf`
    and try every variant in turn). The mapping names every variant."""
    discriminator = node.get("discriminator")
    if "anyOf" not in node or not isinstance(discriminator, dict):
        return node
    mapped = set(discriminator.get("mapping", {}).values())
    variants = {variant.get("$ref") for variant in node["anyOf"]}
    if mapped != variants:
        raise ValueError(f"a discriminator mapping names {mapped}, the union {variants}")
    return {("oneOf" if key == "anyOf" else key): value for key, value in node.items()}


def _close_request_bodies(schemas: dict[str, Any]) -> None:
    """Request bodies refuse unknown fields (contracts.api.Request): say so; and an optional
    field keeps its bounds (Litestar drops a `Meta(ge=0)` under `| None`)."""
    pending: list[type] = [Request, Clock]
    while pending:
        kind = pending.pop()
        pending += kind.__subclasses__()
        if kind.__name__ in schemas:
            schemas[kind.__name__]["additionalProperties"] = False
            _keep_optional_bounds(kind, schemas[kind.__name__])


BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength")


def _keep_optional_bounds(kind: type, schema: dict[str, Any]) -> None:
    """Copy the bounds msgspec gives an optional field's value into Litestar's schema of it."""
    _, components = msgspec.json.schema_components([kind])
    own = components.get(kind.__name__, {}).get("properties", {})
    for name, declared in schema.get("properties", {}).items():
        choices = own.get(name, {}).get("anyOf", [])
        bounded = [c for c in choices if any(bound in c for bound in BOUNDS)]
        variants = declared.get("oneOf", [])
        if len(bounded) != 1:
            continue
        for variant in variants:
            if variant.get("type") == bounded[0].get("type"):
                variant.update({k: v for k, v in bounded[0].items() if k in BOUNDS})


TAG_DESCRIPTIONS = {
    "games": "Create a game, take a seat, the lobby.",
    "commands": "Submit a command for your seat; what became of it.",
    "reads": "Your view, whose turn it is, the events, the live stream.",
    "history": "Replay, audit and the seed check.",
    "operations": "Liveness, readiness, metrics.",
    "admin": "The operator's webhook endpoints (the admin credential).",
}


def _tags(document: dict[str, Any], games: dict[str, Any]) -> list[dict[str, str]]:
    """Every tag the operations use, described."""
    used = {
        tag for item in document["paths"].values() for op in item.values() for tag in op["tags"]
    }
    described = [{"name": name, "description": text} for name, text in TAG_DESCRIPTIONS.items()]
    described += [
        {"name": game, "description": f"The operations on a game, typed by {game}'s schemas."}
        for game in games
    ]
    return [tag for tag in described if tag["name"] in used]


def _without_closed_tuple(node: dict[str, Any]) -> dict[str, Any]:
    """msgspec closes a tuple's schema with `"items": false` (nothing past `prefixItems`),
    which client generators reject; `maxItems` says the same, so `items` names the positions'
    types instead."""
    if node.get("items") is False and "prefixItems" in node:
        positions: list[Any] = []
        for position in node["prefixItems"]:
            if position not in positions:
                positions.append(position)
        node["items"] = positions[0] if len(positions) == 1 else {"anyOf": positions}
    return node


def innermost_first(node: Any, rewrite: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
    """`node` with every object in it rewritten by `rewrite`, the innermost first."""
    if isinstance(node, list):
        return [innermost_first(item, rewrite) for item in node]
    if not isinstance(node, dict):
        return node
    return rewrite({key: innermost_first(value, rewrite) for key, value in node.items()})


def openapi_json(app: Litestar) -> bytes:
    """The OpenAPI document, encoded as indented JSON."""
    return msgspec.json.format(msgspec.json.encode(openapi_document(app)), indent=2)


OPENAPI_STATE_KEY = "openapi_json"


def cached_openapi_json(app: Litestar) -> bytes:
    """The OpenAPI document of `app`, encoded once per app."""
    if OPENAPI_STATE_KEY not in app.state:
        app.state[OPENAPI_STATE_KEY] = openapi_json(app)
    document: bytes = app.state[OPENAPI_STATE_KEY]
    return document
