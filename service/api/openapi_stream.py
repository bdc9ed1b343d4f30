"""The server-sent stream's messages, declared in the OpenAPI document.

`GET .../stream` (opened with a seat token, a stream ticket or neither) answers one
`text/event-stream` whose messages (`service.facade.live`) are:

- `event`: an event the caller may see, its data an `EventRecord` (as `GET /events` lists it);
- `view`: the caller's whole view, its data a `ViewEnvelope`;
- `patch`: an RFC 6902 JSON Patch taking the last view sent to the new one (`ViewPatch`).

Every message's `id` is the game's version. The stream opens with `retry: <ms>`, and
comments (`: keep-alive`) are its heartbeats: neither is a message, so neither has data.

The response schema is the message as an SSE client parses it (event, id, data), one variant
per event name, `data` being a string of JSON whose schema is its `contentSchema` (JSON Schema
2020-12). The generators the tests run read each variant as an object of strings; validators
that assert content read the data's schema too. The variants' `$ref`s are renamed in each
game's copy of the operation (`openapi_games.per_game_operations`), so a game's stream names
its own `EventRecord` and `ViewEnvelope`.
"""

from __future__ import annotations

from typing import Any

from .openapi_games import ref

STREAM_OPERATION = "streamViews"
VIEW_PATCH = "ViewPatch"
STREAM_DESCRIPTION = (
    "A stream of server-sent events (the schema is one message as an SSE client parses it; "
    "`data` is one line of JSON of the variant's `contentSchema`). Every message's `id` is the "
    "game's version. `event` messages bring the events the caller may see (EventRecord), "
    "then a `view` (ViewEnvelope, whole: on connect, after a resume and with `view=whole`) or "
    "a `patch` (ViewPatch, RFC 6902, to the view sent before) at the newest version. The "
    "stream opens with `retry: <ms>`; comments (`: keep-alive`) are heartbeats, with no data."
)
MESSAGES = {
    "event": ("EventRecord", "An event the caller may see, as GET /events lists it."),
    "view": ("ViewEnvelope", "The caller's whole view at the message's version."),
    "patch": (VIEW_PATCH, "The change from the view sent before to the one at this version."),
}
PATCH_OPERATION = {
    "type": "object",
    "title": "ViewPatchOperation",
    "description": "One RFC 6902 operation; `path` and `from` are JSON Pointers.",
    "required": ["op", "path"],
    "properties": {
        "op": {
            "type": "string",
            "enum": ["add", "remove", "replace", "move", "copy", "test"],
        },
        "path": {"type": "string"},
        "from": {"type": "string"},
        "value": {"description": "The value to add, replace with or test (any JSON)."},
    },
}
VIEW_PATCH_SCHEMA = {
    "type": "array",
    "title": VIEW_PATCH,
    "description": "An RFC 6902 JSON Patch from the view last sent on the stream to the view at "
    "the message's version. Its first operation tests `/version` against the view it "
    "applies to, so applying it to another view fails instead of giving a wrong one.",
    "items": PATCH_OPERATION,
    "minItems": 1,
}


def stream_message(name: str, data: str, about: str) -> dict[str, Any]:
    """The schema of one kind of message: its event name, version id and JSON data."""
    return {
        "type": "object",
        "title": f"Stream{name.capitalize()}Message",
        "description": f"`event: {name}`. {about}",
        "required": ["event", "id", "data"],
        "properties": {
            "event": {"type": "string", "const": name},
            "id": {"type": "string", "pattern": "^[0-9]+$", "description": "The version."},
            "data": {
                "type": "string",
                "contentMediaType": "application/json",
                "contentSchema": ref(data),
            },
        },
    }


def declare_stream(document: dict[str, Any]) -> None:
    """Declare the stream's messages (before operations are copied per game: each copy then
    names its game's EventRecord and ViewEnvelope)."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    schemas[VIEW_PATCH] = VIEW_PATCH_SCHEMA
    messages = [stream_message(name, *declared) for name, declared in MESSAGES.items()]
    for item in document["paths"].values():
        for operation in item.values():
            if operation["operationId"] == STREAM_OPERATION:
                success = operation["responses"]["200"]
                success["description"] = STREAM_DESCRIPTION
                success["content"] = {"text/event-stream": {"schema": {"oneOf": messages}}}
