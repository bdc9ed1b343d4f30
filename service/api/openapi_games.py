"""Each registered game's types in the OpenAPI document, and the API messages typed by them.

The API's messages carry a game's payloads (config, command, event, view) as JSON objects.
For a client generated from the document to be typed end to end, this module, from the game
registry alone:

- adds each game's own Structs under `components.schemas`, every name prefixed with the game
  (`ChessMove`, `GoMove`: the wire tags stay `Move`), with a `title` equal
  to that name (generators name their classes by title);
- adds, for each game, a typed copy of every API message that carries a payload
  (`ChessTurn`: `legal_commands` is a list of `ChessCommand`), and of every message that
  holds one of those (`ChessEventPage` holds `ChessEventRecord`);
- types the shared messages with the union of every game's payloads (`anyOf`), and the body of
  `POST /games` as a union discriminated by its `game` field;
- copies each operation on a game (`/games/{game_id}/...`) to the game's own path
  (`/chess/games/{game_id}/...`, operation `chessGetTurn`, tag `chess`), typed by that
  game's messages. The routes behind those paths are the same handlers (see `routes/per_game`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import msgspec

from contracts.stream import META_EVENT_TYPES, MetaEvent
from domain.games import game_names, get_game

REF_ROOT = "#/components/schemas/"
# The payload kinds each game defines, by the Game protocol attribute holding their type.
GAME_PAYLOADS = {
    "config": "config_type",
    "command": "command_type",
    "event": "event_type",
    "view": "view_type",
}
# Where the API's messages carry a game's payload: message -> field -> kind (`[]`: a list of).
# `stream_event` is any event of a game's stream: the game's own or the service's around them.
PAYLOAD_FIELDS: dict[str, dict[str, str]] = {
    "CreateGameRequest": {"config": "config"},
    "SubmitCommand": {"command": "command"},
    "CommandOutcome": {"legal_commands": "command[]"},
    "Turn": {"legal_commands": "command[]"},
    "ViewEnvelope": {"view": "view"},
    "EventRecord": {"event": "stream_event"},
    "ReplayFrame": {"view": "view"},
    "MoveRecord": {"command": "command"},
    "CommandAsReceived": {"command": "command"},
    "AuditReport": {
        "public_view_before": "view",
        "seat_view_before": "view",
        "legal_alternatives": "command[]",
    },
    "DrawMismatch": {"expected": "stream_event", "recorded": "stream_event"},
}
# The message whose `game` field says which game its payloads belong to.
DISCRIMINATED_BY_GAME = "CreateGameRequest"
GAME_PATH_PREFIX = "/games/{game_id}"


def camel(name: str) -> str:
    """A game's name as a CamelCase prefix (`chess` -> `Chess`)."""
    return "".join(part.capitalize() for part in name.replace("-", "_").split("_"))


def game_path(game: str, path: str) -> str | None:
    """The path of a game's own copy of an operation on `[/<version>]/games/{game_id}...`
    (`/v1/games/{game_id}/view` -> `/v1/chess/games/{game_id}/view`); None for a path that
    is not an operation on a game."""
    version, found, rest = path.partition(GAME_PATH_PREFIX)
    if not found or version.count("/") > 1:
        return None
    return f"{version}/{game}{GAME_PATH_PREFIX}{rest}"


def ref(name: str) -> dict[str, str]:
    """A `$ref` to a component schema."""
    return {"$ref": REF_ROOT + name}


def _any_value(annotation: Any) -> dict[str, Any]:
    # `object` (an untyped value) is any JSON value.
    if annotation is object:
        return {"description": "any JSON value"}
    raise TypeError(f"no JSON schema for {annotation!r}")


def _prefixed(prefix: str, name: str) -> str:
    # ChessConfig stays ChessConfig, Move becomes ChessMove.
    return name if name.startswith(prefix) else prefix + name


def _msgspec_components(
    schemas: dict[str, Any], prefix: str, types: dict[str, Any]
) -> dict[str, dict[str, str]]:
    """Add the schemas of `types` (and all they hold) under `prefix`; a `$ref` per kind."""
    generated = msgspec.json.schema_components(
        list(types.values()), schema_hook=_any_value, ref_template=REF_ROOT + "{name}"
    )
    # Through JSON and back: defaults come as Python values (a tuple default is not an array).
    roots, components = _typed_enums(msgspec.json.decode(msgspec.json.encode(generated)))
    names = {name: _prefixed(prefix, name) for name in components}
    roots, components = _renamed_refs([roots, components], names)
    for name, schema in components.items():
        _add(schemas, names[name], schema)
    refs: dict[str, dict[str, str]] = {}
    for kind, root in zip(types, roots, strict=True):
        if set(root) != {"$ref"}:
            # A union (or another inline schema) gets a component of its own: ChessCommand.
            _add(schemas, prefix + kind.capitalize(), root)
            root = ref(prefix + kind.capitalize())
        refs[kind] = root
    return refs


def _typed_enums(node: Any) -> Any:
    """msgspec leaves `Literal[True, False]` an enum with no type, which generators refuse
    (openapi-python-client drops the schema): say it is a boolean."""
    if isinstance(node, list):
        return [_typed_enums(item) for item in node]
    if not isinstance(node, dict):
        return node
    typed = {key: _typed_enums(value) for key, value in node.items()}
    values = typed.get("enum")
    if values and "type" not in typed and all(isinstance(v, bool) for v in values):
        typed["type"] = "boolean"
    return typed


def _add(schemas: dict[str, Any], name: str, schema: dict[str, Any]) -> None:
    if name in schemas:
        raise ValueError(f"OpenAPI component name clash: {name}")
    schemas[name] = {"title": name, **{k: v for k, v in schema.items() if k != "title"}}


def _renamed_refs(node: Any, names: dict[str, str]) -> Any:
    """`node` with every `$ref` to a component renamed by `names` (others left alone)."""
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str) and node["$ref"].startswith(REF_ROOT):
            target = node["$ref"].removeprefix(REF_ROOT)
            return {**node, "$ref": REF_ROOT + names.get(target, target)}
        renamed = {key: _renamed_refs(value, names) for key, value in node.items()}
        mapping = renamed.get("discriminator", {}).get("mapping")
        if isinstance(mapping, dict):
            renamed["discriminator"] = {
                **renamed["discriminator"],
                "mapping": {
                    tag: _renamed_refs({"$ref": to}, names)["$ref"] for tag, to in mapping.items()
                },
            }
        return renamed
    if isinstance(node, list):
        return [_renamed_refs(item, names) for item in node]
    return node


def refs_in(node: Any) -> Iterator[str]:
    """The names of the components `node` refers to, directly."""
    if isinstance(node, dict):
        target = node.get("$ref")
        if isinstance(target, str) and target.startswith(REF_ROOT):
            yield target.removeprefix(REF_ROOT)
        for value in node.values():
            yield from refs_in(value)
    elif isinstance(node, list):
        for item in node:
            yield from refs_in(item)


def add_game_payloads(schemas: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Add every game's payload schemas; per game, its rules version and a `$ref` per kind
    (config, command, event, view and stream_event)."""
    games: dict[str, dict[str, Any]] = {}
    _msgspec_components(schemas, "Stream", {"event": MetaEvent})
    for name in game_names():
        game = get_game(name)
        prefix = camel(name)
        types = {kind: getattr(game, attribute) for kind, attribute in GAME_PAYLOADS.items()}
        refs: dict[str, Any] = _msgspec_components(schemas, prefix, types)
        refs["stream_event"] = _stream_event(schemas, prefix, refs)
        games[name] = {"rules_version": game.rules_version, **refs}
    return games


def _stream_event(schemas: dict[str, Any], prefix: str, refs: dict[str, Any]) -> dict[str, str]:
    """The union of a game's events and the service's own (the life cycle, clocks, stand-ins
    and the seed: contracts.stream's MetaEvent), its GameCreated typed by its config."""
    created = copy.deepcopy(schemas["StreamGameCreated"])
    created["properties"]["config"] = refs["config"]
    _add(schemas, prefix + "GameCreated", created)
    union = _union_members(schemas, refs["event"]["$ref"].removeprefix(REF_ROOT))
    mapping = {tag: REF_ROOT + member for tag, member in union.items()}
    services = {name: "Stream" + name for name in sorted(META_EVENT_TYPES)}
    for tag, member in {**services, "GameCreated": prefix + "GameCreated"}.items():
        if tag in mapping:
            raise ValueError(f"{prefix} event tag {tag} clashes with the service's own event")
        mapping[tag] = REF_ROOT + member
    _add(
        schemas,
        prefix + "StreamEvent",
        {
            "anyOf": [{"$ref": target} for target in mapping.values()],
            "discriminator": {"propertyName": "type", "mapping": mapping},
        },
    )
    return ref(prefix + "StreamEvent")


def _union_members(schemas: dict[str, Any], name: str) -> dict[str, str]:
    """A tagged union's members by tag (a single Struct is a union of one)."""
    schema = schemas[name]
    if "discriminator" in schema:
        return {
            tag: target.removeprefix(REF_ROOT)
            for tag, target in schema["discriminator"]["mapping"].items()
        }
    tag = schema["properties"]["type"]["enum"][0]
    return {tag: name}


def _payload_schema(kind: str, target: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": target} if kind.endswith("[]") else target


def _with_payload(original: dict[str, Any], payload: dict[str, Any]) -> dict[str, Any]:
    """`payload` in place of a field's schema, nullable if the field was."""
    variants = original.get("oneOf", original.get("anyOf", []))
    if {"type": "null"} in variants:
        return {"oneOf": [payload, {"type": "null"}]}
    return payload


def typed_messages(schemas: dict[str, Any], games: dict[str, dict[str, Any]]) -> set[str]:
    """Type the API's messages by the games' payloads: a copy per game (`ChessTurn`), the
    shared one by every game's. Returns the names of the messages that have per-game copies."""
    carrying = _carrying_payloads(schemas)
    for game, refs in games.items():
        prefix = camel(game)
        names = {name: prefix + name for name in carrying}
        for name in sorted(carrying):  # not the set's order: it changes with each process
            schema = _renamed_refs(copy.deepcopy(schemas[name]), names)
            for field, kind in PAYLOAD_FIELDS.get(name, {}).items():
                payload = _payload_schema(kind, refs[kind.removesuffix("[]")])
                properties = schema["properties"]
                properties[field] = _with_payload(properties[field], payload)
            if name == DISCRIMINATED_BY_GAME:
                schema["properties"]["game"] = {"type": "string", "const": game}
            _add(schemas, prefix + name, schema)
    for name, fields in PAYLOAD_FIELDS.items():
        properties = schemas[name]["properties"]
        for field, kind in fields.items():
            bare = kind.removesuffix("[]")
            union = {"anyOf": [refs[bare] for refs in games.values()]}
            properties[field] = _with_payload(properties[field], _payload_schema(kind, union))
    mapping = {game: REF_ROOT + camel(game) + DISCRIMINATED_BY_GAME for game in games}
    schemas[DISCRIMINATED_BY_GAME] = {
        "title": DISCRIMINATED_BY_GAME,
        "description": schemas[DISCRIMINATED_BY_GAME].get("description", ""),
        "oneOf": [{"$ref": target} for target in mapping.values()],
        "discriminator": {"propertyName": "game", "mapping": mapping},
    }
    return carrying


def _carrying_payloads(schemas: dict[str, Any]) -> set[str]:
    """The API messages that carry a payload, directly or through another such message."""
    carrying = set(PAYLOAD_FIELDS)
    grown = True
    while grown:
        grown = False
        for name, schema in schemas.items():
            if name not in carrying and not set(refs_in(schema)).isdisjoint(carrying):
                carrying.add(name)
                grown = True
    return carrying


def per_game_operations(
    document: dict[str, Any], games: dict[str, dict[str, Any]], carrying: set[str]
) -> None:
    """Copy each operation on a game to each game's own path, typed by that game's messages."""
    paths: dict[str, Any] = document["paths"]
    for path, item in list(paths.items()):
        if game_path("", path) is None:
            continue
        for game in games:
            prefix = camel(game)
            names = {name: prefix + name for name in carrying}
            copied: dict[str, Any] = {}
            for method, operation in item.items():
                typed = _renamed_refs(copy.deepcopy(operation), names)
                typed["operationId"] = (
                    game + operation["operationId"][:1].upper() + (operation["operationId"][1:])
                )
                typed["tags"] = [game]
                typed["summary"] = f"{operation.get('summary', '')} ({game})"
                copied[method] = typed
            paths[str(game_path(game, path))] = copied
