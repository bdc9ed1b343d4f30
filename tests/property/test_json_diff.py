"""The live feed's JSON Patch: applied by an independent RFC 6902 library, it gives the target."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from service.facade.json_diff import json_diff

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
)
# Member names with the characters JSON Pointer escapes, and numbers-as-names.
KEYS = st.text(alphabet="ab~/01", max_size=4)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=5),
    max_leaves=25,
)


def exact(value: Any) -> str:
    """The value as canonical JSON: 1, 1.0 and true stay apart, key order does not count."""
    return json.dumps(value, sort_keys=True)


@settings(max_examples=400)
@given(JSON, JSON)
def test_the_patch_takes_any_document_to_any_other(source: Any, target: Any) -> None:
    patch = json_diff(source, target)
    patched = jsonpatch.apply_patch(copy.deepcopy(source), patch)
    assert exact(patched) == exact(target)


@given(JSON)
def test_a_document_unchanged_is_an_empty_patch(document: Any) -> None:
    assert json_diff(document, copy.deepcopy(document)) == []


@given(st.dictionaries(KEYS, JSON, min_size=1, max_size=5), st.data())
def test_one_member_changed_is_one_operation_at_its_place(
    document: dict[str, Any], data: st.DataObject
) -> None:
    key = data.draw(st.sampled_from(sorted(document)))
    changed = {**document, key: {"changed": [document[key]]}}
    patch = json_diff(document, changed)
    escaped = key.replace("~", "~0").replace("/", "~1")
    assert all(op["path"].startswith(f"/{escaped}") for op in patch)
    assert exact(jsonpatch.apply_patch(copy.deepcopy(document), patch)) == exact(changed)
