"""An RFC 6902 JSON Patch from one JSON document to another, made in one walk of both.

`jsonpatch.make_patch` pairs the items of two arrays with difflib's SequenceMatcher so that it
can express moves and insertions; on a seat's view that cost about 0.3-0.7 ms per update, the
live feed's largest cost per connection (`skald bench`, docs/benchmarks.md). A view changes in
place from one version to the next (a position, who acts, a hand), so this walk compares
objects key by key and arrays index by index, and grows or shrinks an array at its end. The
patch is correct for any two documents; where an array shifted, it is longer than a
SequenceMatcher's, and the live feed then sends the whole view (a patch no smaller than the
view never goes out). Values are compared with their JSON types: 1, 1.0 and true differ.
"""

from __future__ import annotations

from typing import Any


def json_diff(source: Any, target: Any) -> list[dict[str, Any]]:
    """The operations (add, remove, replace) taking JSON value `source` to `target`."""
    operations: list[dict[str, Any]] = []
    _diff(source, target, "", operations)
    return operations


def _pointer_token(key: str) -> str:
    # RFC 6901: "~" and "/" in a member name are escaped as "~0" and "~1".
    return key.replace("~", "~0").replace("/", "~1")


def _diff(source: Any, target: Any, path: str, operations: list[dict[str, Any]]) -> None:
    if type(source) is dict and type(target) is dict:
        for key in source:
            if key not in target:
                operations.append({"op": "remove", "path": f"{path}/{_pointer_token(key)}"})
        for key, value in target.items():
            member = f"{path}/{_pointer_token(key)}"
            if key in source:
                _diff(source[key], value, member, operations)
            else:
                operations.append({"op": "add", "path": member, "value": value})
        return
    if type(source) is list and type(target) is list:
        common = min(len(source), len(target))
        for index in range(common):
            _diff(source[index], target[index], f"{path}/{index}", operations)
        for index in range(len(source) - 1, common - 1, -1):  # from the end: indexes hold
            operations.append({"op": "remove", "path": f"{path}/{index}"})
        for index in range(common, len(target)):
            operations.append({"op": "add", "path": f"{path}/{index}", "value": target[index]})
        return
    if type(source) is not type(target) or source != target:
        operations.append({"op": "replace", "path": path, "value": target})
