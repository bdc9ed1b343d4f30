"""The AsyncAPI 3 document: every message of the live channels, beside the OpenAPI document.

OpenAPI describes requests and replies; what a client holds open is described here, from the
server's side (`receive`: what a client sends it, `send`: what it sends):

- `gameSocket`, a seat's WebSocket (`routes/socket.py`, frames in `socket_channel`): `hello`
  and `command` in; `event`, `view`, `patch`, `turn`, `outcome` and `problem` out;
- `gameStream`, the server-sent event stream of a seat or a spectator: `event`, `view` and
  `patch` messages (the SSE event name is the message's name, its data the payload);
- `notificationStream`, a player's server-sent notifications: `notification` messages.

The payloads name the OpenAPI document's schemas, copied into `components.schemas`: a game's
commands, events and views are typed exactly as in the HTTP operations (the shared unions of
every registered game). `/asyncapi.json` and `skald asyncapi` serve it.
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Litestar

from .openapi import cached_openapi_json
from .openapi_games import REF_ROOT
from .socket_channel import Hello, SocketCommand

SOCKET = "gameSocket"
STREAM = "gameStream"
NOTIFICATIONS = "notificationStream"
ASYNCAPI_STATE_KEY = "asyncapi_json"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"{REF_ROOT}{name}"}


def _message(name: str, summary: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "title": name, "summary": summary, "payload": payload}


def _live_frame(kind: str, data: str, about: str) -> dict[str, Any]:
    """A socket frame of the live feed: its kind, the version it brings, its data."""
    return {
        "type": "object",
        "title": f"Socket{kind.capitalize()}Frame",
        "description": about,
        "required": ["type", "version", "data"],
        "properties": {
            "type": {"type": "string", "const": kind},
            "version": {"type": "integer", "minimum": 0},
            "data": _ref(data),
        },
        "additionalProperties": False,
    }


OUTCOME_FRAME = {
    "type": "object",
    "title": "SocketOutcomeFrame",
    "description": "A command's outcome: `queued` (acknowledged: in the game's inbox), or "
    "`applied`/`refused` once decided (with `wait`). It names the command (`command_id`).",
    "required": ["type", "outcome"],
    "properties": {
        "type": {"type": "string", "const": "outcome"},
        "outcome": _ref("CommandOutcome"),
    },
    "additionalProperties": False,
}
PROBLEM_FRAME = {
    "type": "object",
    "title": "SocketProblemFrame",
    "description": "An RFC 9457 problem: the same `code`, `status` and `detail` as the HTTP "
    "reply to the same input, with the command it answers. After a problem in the hello the "
    "server closes the connection.",
    "required": ["type", "problem"],
    "properties": {
        "type": {"type": "string", "const": "problem"},
        "problem": _ref("Problem"),
        "command_id": {"type": "string"},
    },
    "additionalProperties": False,
}
LIVE_FRAMES = {
    "event": ("EventRecord", "An event the seat may see (as GET /events lists it)."),
    "view": ("ViewEnvelope", "The seat's whole view at the frame's version."),
    "patch": ("ViewPatch", "The RFC 6902 change from the view sent before to this version's."),
    "turn": (
        "Turn",
        "After each view or patch: the seat's turn at that version (who acts, the seat's "
        "legal commands, the clock's deadlines, the phase, the outcome once finished).",
    ),
}
STREAM_MESSAGES = {
    "event": ("EventRecord", "`event: event`, id the version: an event the caller may see."),
    "view": ("ViewEnvelope", "`event: view`, id the version: the caller's whole view."),
    "patch": ("ViewPatch", "`event: patch`, id the version: the change to the last view."),
}


def _client_frames(schemas: dict[str, Any]) -> dict[str, Any]:
    """The schemas of the frames a client sends, from the Structs the server decodes; a
    command typed as the HTTP body's (every game's commands)."""
    _, defs = msgspec.json.schema_components(
        [Hello, SocketCommand], ref_template=REF_ROOT + "{name}"
    )
    command = dict(defs["SocketCommand"])
    command["properties"] = dict(command["properties"])
    command["properties"]["command"] = schemas["SubmitCommand"]["properties"]["command"]
    return {"SocketHello": defs["Hello"], "SocketCommand": command}


def asyncapi_document(app: Litestar) -> dict[str, Any]:
    """The AsyncAPI 3.1 document of the live channels, typed by the OpenAPI schemas."""
    openapi = msgspec.json.decode(cached_openapi_json(app))
    schemas: dict[str, Any] = _asyncapi_dialect(openapi["components"]["schemas"])
    schemas.update(_client_frames(schemas))
    messages: dict[str, Any] = {
        "hello": _message(
            "hello",
            "The first frame, once: a seat token or a stream ticket, and where the feed starts "
            "(`after`: resume after that version; `view`: patches or whole views).",
            _ref("SocketHello"),
        ),
        "command": _message(
            "command",
            "A command for the seat, as the body of POST .../commands (`wait`: answer once "
            "decided); a retry with the same `command_id` is the same command, as over HTTP.",
            _ref("SocketCommand"),
        ),
        "outcome": _message("outcome", "A command's outcome.", _ref("SocketOutcomeFrame")),
        "problem": _message("problem", "A refused frame or command.", _ref("SocketProblemFrame")),
        "notification": _message(
            "notification",
            "`event: notification`, id the feed cursor: one thing that happened in one of the "
            "player's games.",
            _ref("Notification"),
        ),
    }
    for kind, (data, about) in LIVE_FRAMES.items():
        title = f"Socket{kind.capitalize()}Frame"
        schemas[title] = _live_frame(kind, data, about)
        messages[f"socket{kind.capitalize()}"] = _message(kind, about, _ref(title))
    for kind, (data, about) in STREAM_MESSAGES.items():
        messages[f"stream{kind.capitalize()}"] = _message(kind, about, _ref(data))
    schemas["SocketOutcomeFrame"] = OUTCOME_FRAME
    schemas["SocketProblemFrame"] = PROBLEM_FRAME
    live = [f"socket{kind.capitalize()}" for kind in LIVE_FRAMES]
    return {
        "asyncapi": "3.1.0",
        "info": {
            "title": "Skald live channels",
            "version": openapi["info"]["version"],
            "description": "A seat's WebSocket (its commands in, its outcomes and live updates "
            "out), the game's server-sent event stream and a player's notification stream. "
            "Requests and replies are in the OpenAPI document (/openapi.json), whose schemas "
            "these messages name.",
        },
        "defaultContentType": "application/json",
        "servers": {
            "socket": {
                "host": "{host}",
                "protocol": "ws",
                "pathname": "/v1",
                "description": "The API's own address (wss behind TLS).",
                "variables": {"host": {"default": "127.0.0.1:8000"}},
            },
            "http": {
                "host": "{host}",
                "protocol": "http",
                "pathname": "/v1",
                "description": "The API's own address, for the server-sent event streams.",
                "variables": {"host": {"default": "127.0.0.1:8000"}},
            },
        },
        "channels": {
            SOCKET: _channel(
                "/games/{game_id}/socket",
                "socket",
                "A seat's WebSocket: JSON text frames, each with a `type`.",
                ["hello", "command", *live, "outcome", "problem"],
            ),
            STREAM: _channel(
                "/games/{game_id}/stream",
                "http",
                "Server-sent events of a seat (token or ticket) or a spectator; each message's "
                "id is the version, and a reconnect with Last-Event-ID resumes after it.",
                ["streamEvent", "streamView", "streamPatch"],
            ),
            NOTIFICATIONS: _channel(
                "/players/me/notifications/stream",
                "http",
                "Server-sent notifications of a player (player token or ticket); each id is a "
                "feed cursor, and a reconnect with Last-Event-ID resumes after it.",
                ["notification"],
            ),
        },
        "operations": {
            "receiveHello": _operation("receive", SOCKET, ["hello"], "A seat says hello."),
            "receiveCommand": _operation("receive", SOCKET, ["command"], "A seat's command."),
            "sendLiveFrame": _operation(
                "send",
                SOCKET,
                live,
                "Every version the game reaches: its events, then the view or its patch, then "
                "the seat's turn; a reconnect's hello with `after` resumes after that version.",
            ),
            "sendOutcome": _operation("send", SOCKET, ["outcome"], "A command acknowledged."),
            "sendProblem": _operation("send", SOCKET, ["problem"], "A frame or command refused."),
            "sendStreamMessage": _operation(
                "send", STREAM, ["streamEvent", "streamView", "streamPatch"], "The live feed."
            ),
            "sendNotification": _operation(
                "send", NOTIFICATIONS, ["notification"], "A player's notifications."
            ),
        },
        "components": {"messages": messages, "schemas": schemas},
    }


def _asyncapi_dialect(node: Any) -> Any:
    """OpenAPI 3.1's schemas (JSON Schema 2020-12) in the AsyncAPI Schema format (a superset
    of draft 07): a discriminator is its property's name, a tuple's positions are `items`."""
    if isinstance(node, list):
        return [_asyncapi_dialect(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: _asyncapi_dialect(value) for key, value in node.items()}
    if isinstance(converted.get("discriminator"), dict):
        converted["discriminator"] = converted["discriminator"]["propertyName"]
    if "prefixItems" in converted:
        converted["items"] = converted.pop("prefixItems")
        converted["additionalItems"] = False
    return converted


def _channel(address: str, server: str, about: str, messages: list[str]) -> dict[str, Any]:
    parameters = {"game_id": {"description": "The game's id."}} if "{game_id}" in address else {}
    channel: dict[str, Any] = {
        "address": address,
        "description": about,
        "servers": [{"$ref": f"#/servers/{server}"}],
        "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in messages},
    }
    if parameters:
        channel["parameters"] = parameters
    return channel


def _operation(action: str, channel: str, messages: list[str], about: str) -> dict[str, Any]:
    return {
        "action": action,
        "summary": about,
        "channel": {"$ref": f"#/channels/{channel}"},
        "messages": [{"$ref": f"#/channels/{channel}/messages/{name}"} for name in messages],
    }


def asyncapi_json(app: Litestar) -> bytes:
    """The AsyncAPI document, encoded as indented JSON."""
    return msgspec.json.format(msgspec.json.encode(asyncapi_document(app)), indent=2)


def cached_asyncapi_json(app: Litestar) -> bytes:
    """The AsyncAPI document of `app`, encoded once per app."""
    if ASYNCAPI_STATE_KEY not in app.state:
        app.state[ASYNCAPI_STATE_KEY] = asyncapi_json(app)
    document: bytes = app.state[ASYNCAPI_STATE_KEY]
    return document
