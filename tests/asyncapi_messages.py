"""Messages seen on the live channels, checked against the AsyncAPI document the server serves:
each frame or stream message must match the payload of the channel's message of its name."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft7Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

BASE = "urn:skald:asyncapi"
SOCKET = "gameSocket"
STREAM = "gameStream"
NOTIFICATIONS = "notificationStream"


class AsyncApiMessages:
    """Validators for every message of every channel of one AsyncAPI document."""

    def __init__(self, document: dict[str, Any]) -> None:
        resource = Resource.from_contents(document, default_specification=DRAFT7)
        registry: Registry[Any] = Registry().with_resource(BASE, resource)
        self.validators: dict[tuple[str, str], Draft7Validator] = {}
        for channel_name, channel in document["channels"].items():
            for key, ref in channel["messages"].items():
                message = document["components"]["messages"][ref["$ref"].rsplit("/", 1)[1]]
                schema = {"$ref": f"{BASE}#/components/messages/{key}/payload"}
                validator = Draft7Validator(schema, registry=registry)
                self.validators[(channel_name, message["name"])] = validator
        self.seen: dict[tuple[str, str], int] = {}

    def check(self, channel: str, name: str, payload: Any) -> None:
        """Raise AssertionError unless `payload` is a valid `name` message of `channel`."""
        validator = self.validators.get((channel, name))
        assert validator is not None, f"{channel} declares no {name!r} message"
        errors = sorted(validator.iter_errors(payload), key=lambda error: list(error.path))
        assert not errors, f"{channel} {name}: {errors[0].message} at {list(errors[0].path)}"
        self.seen[(channel, name)] = self.seen.get((channel, name), 0) + 1

    def check_frame(self, frame: dict[str, Any]) -> None:
        """A socket frame (its name is its `type`)."""
        self.check(SOCKET, frame["type"], frame)
