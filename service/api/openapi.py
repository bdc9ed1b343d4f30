"""The OpenAPI document: Litestar's (from the API Structs) plus every game's own schemas.

API messages carry game payloads (config, command, event, view) as JSON objects. So that a
mobile team can generate types for those too, the document lists each registered game's
Structs under `components.schemas` (prefixed with the game's name in CamelCase) and maps them
in the `x-skald-games` extension: `{game: {config, command, event, view: $ref}}`.
"""

from __future__ import annotations

from importlib import metadata
from typing import Any

import msgspec
from litestar import Litestar
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme

from contracts.stream import MetaEvent
from domain.games import game_names, get_game

from .docs import SEAT_TOKEN_SCHEME

REF_ROOT = "#/components/schemas/"
# The payload kinds each game defines, by the Game protocol attribute holding their type.
GAME_PAYLOADS = {
    "config": "config_type",
    "command": "command_type",
    "event": "event_type",
    "view": "view_type",
}


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
            "(`application/problem+json`) with a stable `code`. Game payloads (config, "
            "command, event, view) follow the game's own schemas, listed in `x-skald-games`."
        ),
        components=Components(
            security_schemes={
                SEAT_TOKEN_SCHEME: SecurityScheme(
                    type="http",
                    scheme="bearer",
                    description="The seat token returned once by POST /games/{game_id}/seats.",
                )
            }
        ),
        path="/schema",
    )


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.replace("-", "_").split("_"))


def _prefixed(prefix: str, name: str) -> str:
    return name if name.startswith(prefix) else prefix + name


def _any_value(annotation: Any) -> dict[str, Any]:
    # `object` (an untyped value, e.g. a game's config inside GameCreated) is any JSON value.
    if annotation is object:
        return {"description": "any JSON value"}
    raise TypeError(f"no JSON schema for {annotation!r}")


def _add_payload_schemas(
    schemas: dict[str, Any], prefix: str, types: dict[str, Any]
) -> dict[str, dict[str, str]]:
    """Add the schemas of `types` under `prefix`; return a `$ref` for each kind."""
    generated = msgspec.json.schema_components(
        list(types.values()), schema_hook=_any_value, ref_template=REF_ROOT + "{name}"
    )
    # Each component is named under the game's prefix, once: a class already named after its
    # game (LoootPlaceTile) keeps its name, others get it (PlaceTile -> FjordsPlaceTile).
    renamed = {name: _prefixed(prefix, name) for name in generated[1]}
    encoded = msgspec.json.encode(generated)
    for name, new_name in renamed.items():
        encoded = encoded.replace(
            f'"{REF_ROOT}{name}"'.encode(), f'"{REF_ROOT}{new_name}"'.encode()
        )
    # Through JSON and back: defaults come as Python values (a tuple default is not an array).
    roots, components = msgspec.json.decode(encoded)
    for name, schema in components.items():
        schemas[renamed[name]] = schema
    refs: dict[str, dict[str, str]] = {}
    for kind, root in zip(types, roots, strict=True):
        if set(root) == {"$ref"}:
            refs[kind] = root
            continue
        # A union (or another inline schema) gets a named component of its own.
        alias = f"{prefix}{kind.capitalize()}Union"
        if alias in schemas:
            raise ValueError(f"OpenAPI component name clash: {alias}")
        schemas[alias] = root
        refs[kind] = {"$ref": REF_ROOT + alias}
    return refs


def openapi_document(app: Litestar) -> dict[str, Any]:
    """The API's OpenAPI document as a dict, game schemas included."""
    document: dict[str, Any] = app.openapi_schema.to_schema()
    schemas: dict[str, Any] = document.setdefault("components", {}).setdefault("schemas", {})
    games: dict[str, Any] = {}
    for name in game_names():
        game = get_game(name)
        types = {kind: getattr(game, attribute) for kind, attribute in GAME_PAYLOADS.items()}
        refs = _add_payload_schemas(schemas, _camel(name), types)
        games[name] = {"rules_version": game.rules_version, **refs}
    document["x-skald-games"] = games
    document["x-skald-stream-events"] = _add_payload_schemas(
        schemas, "Stream", {"event": MetaEvent}
    )["event"]
    return document


def openapi_json(app: Litestar) -> bytes:
    """The OpenAPI document, encoded as indented JSON."""
    return msgspec.json.format(msgspec.json.encode(openapi_document(app)), indent=2)
