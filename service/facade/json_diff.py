"""An RFC 6902 JSON Patch from one JSON document to another, made in one walk of both.

`jsonpatch.make_patch` cost about 0.3-0.7 ms per update on a seat's view of a few fields, the
live feed's largest cost per connection (`skald bench`, docs/benchmarks.md): it builds pointer
objects and deep-copies its operations, and pairs every array's items with difflib. A view
changes in place from one version to the next (a position, who acts, a card in a hand), so
this walk compares objects key by key and arrays by their equal ends first; only what differs
in the middle of an array is paired with difflib's SequenceMatcher (on the items' JSON), so an
item taken from or put into a hand is one operation. Values are compared with their JSON
types: 1, 1.0 and true differ. Moves and copies are never generated.
"""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Any

import msgspec

_encode = msgspec.json.encode
_CONTAINERS = (dict, list)


def json_diff(source: Any, target: Any) -> list[dict[str, Any]]:
    """The operations (add, remove, replace) taking JSON value `source` to `target`."""
    operations: list[dict[str, Any]] = []
    _diff(source, target, "", operations)
    return operations


def _pointer_token(key: str) -> str:
    # RFC 6901: "~" and "/" in a member name are escaped as "~0" and "~1".
    return key.replace("~", "~0").replace("/", "~1")


def _diff(source: Any, target: Any, path: str, operations: list[dict[str, Any]]) -> None:
    if (
        type(source) in _CONTAINERS
        and source == target  # most of a view is unchanged: skip its walk (C code compares)
        and _encode(source) == _encode(target)  # and exactly so: 1, 1.0 and true are ==
    ):
        return
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
        _diff_arrays(source, target, path, operations)
        return
    if type(source) is not type(target) or source != target:
        operations.append({"op": "replace", "path": path, "value": target})


def _diff_arrays(
    source: list[Any], target: list[Any], path: str, operations: list[dict[str, Any]]
) -> None:
    # Items are compared by their JSON (exact: 1, 1.0 and true differ). The equal ends are
    # skipped; what is left is paired by SequenceMatcher only when it is longer than one item
    # on either side (an item taken from or put into the middle of a hand), so that the patch
    # removes or adds that item rather than rewriting every item after it.
    source_keys = [_encode(item) for item in source]
    target_keys = [_encode(item) for item in target]
    head, shortest = 0, min(len(source), len(target))
    while head < shortest and source_keys[head] == target_keys[head]:
        head += 1
    tail = 0
    while tail < shortest - head and source_keys[-1 - tail] == target_keys[-1 - tail]:
        tail += 1
    old_end, new_end = len(source) - tail, len(target) - tail
    if old_end - head <= 1 and new_end - head <= 1:
        blocks = [("replace", head, old_end, head, new_end)]
    else:
        matcher = SequenceMatcher(
            None, source_keys[head:old_end], target_keys[head:new_end], autojunk=False
        )
        blocks = [
            (tag, head + i1, head + i2, head + j1, head + j2)
            for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        ]
    at = head  # where the patched array's next untouched item is now
    for tag, i1, i2, j1, j2 in blocks:
        if tag == "equal":
            at += i2 - i1
            continue
        paired = min(i2 - i1, j2 - j1)
        for offset in range(paired):
            _diff(source[i1 + offset], target[j1 + offset], f"{path}/{at + offset}", operations)
        at += paired
        for _ in range(i2 - i1 - paired):
            operations.append({"op": "remove", "path": f"{path}/{at}"})
        for index in range(j1 + paired, j2):
            operations.append({"op": "add", "path": f"{path}/{at}", "value": target[index]})
            at += 1
