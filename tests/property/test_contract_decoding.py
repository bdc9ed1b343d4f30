"""Every contract decodes random input cleanly: a msgspec.DecodeError, never another exception.

The contracts are found, not listed: every msgspec Struct defined in contracts/*.py and
contracts/games/*.py, and every union of Structs (a command or event family) a module exports.
Each is decoded from random bytes and from random JSON shaped like its messages (objects with
its tags and field names, so decoding gets past the first byte), as JSON and as MessagePack,
and converted from random builtins as `msgspec.convert` (the API's path) does.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import pkgutil
import types
import typing
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import contracts
import contracts.games

# Each example draws a contract, then its input: one test covers them all at a bounded cost.
EXAMPLES = 1500
JSON_EXAMPLES = 1000  # random JSON documents are slower to generate than random bytes
PROPERTY_SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def contract_modules() -> list[types.ModuleType]:
    """Every module of contracts/ and contracts/games/."""
    modules = []
    for package in (contracts, contracts.games):
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            if not info.ispkg:
                modules.append(module)
    return modules


def is_struct(value: Any) -> bool:
    return isinstance(value, type) and issubclass(value, msgspec.Struct)


def is_struct_union(value: Any) -> bool:
    return typing.get_origin(value) in (typing.Union, types.UnionType) and all(
        is_struct(member) for member in typing.get_args(value)
    )


def all_contracts() -> dict[str, Any]:
    """Every Struct and Struct union defined in the contracts, by dotted name."""
    found: dict[str, Any] = {}
    for module in contract_modules():
        for name, value in vars(module).items():
            defined_here = getattr(value, "__module__", module.__name__) == module.__name__
            if (is_struct(value) and defined_here) or is_struct_union(value):
                found[f"{module.__name__}.{name}"] = value
    return found


CONTRACTS = all_contracts()


def members(contract: Any) -> tuple[type[msgspec.Struct], ...]:
    return typing.get_args(contract) if is_struct_union(contract) else (contract,)


def vocabulary(contract: Any) -> list[str]:
    """The tags and field names a contract's messages use: random keys drawn from these."""
    words: set[str] = {"type"}
    for member in members(contract):
        info = msgspec.structs.fields(member)
        words.update(field.encode_name for field in info)
        config = member.__struct_config__
        if isinstance(config.tag, str):
            words.add(config.tag)
    return sorted(words)


def json_values(words: list[str]) -> st.SearchStrategy[Any]:
    """Random JSON values whose strings and keys favour the contract's own words."""
    text = st.one_of(st.sampled_from(words), st.text(max_size=8))
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**63), max_value=2**64 - 1),
        st.floats(allow_nan=False),
        text,
    )
    return st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=4),
            st.dictionaries(text, children, max_size=6),
        ),
        max_leaves=10,
    )


def shaped_like(contract: Any) -> st.SearchStrategy[dict[str, Any]]:
    """Random objects that carry the contract's tags and field names with random values."""
    words = vocabulary(contract)
    tags = [
        member.__struct_config__.tag
        for member in members(contract)
        if isinstance(member.__struct_config__.tag, str)
    ] or ["x"]
    return st.builds(
        lambda tag, rest: {"type": tag, **rest},
        st.sampled_from(tags),
        st.dictionaries(st.sampled_from(words), json_values(words), max_size=8),
    )


# msgspec's MessagePack decoder reports a string that is not UTF-8 as UnicodeDecodeError (a
# ValueError) rather than DecodeError (msgspec 0.19-0.22). It is still a clean, typed refusal
# of the input; service.api.negotiation turns it into the same 400 as any malformed body.
MSGPACK_DECODE_ERRORS = (msgspec.DecodeError, UnicodeDecodeError)


@functools.cache
def random_json_for(name: str) -> st.SearchStrategy[Any]:
    """Random JSON for one contract (built once: building strategies is the slow part)."""
    contract = CONTRACTS[name]
    return st.one_of(json_values(vocabulary(contract)), shaped_like(contract))


def decode_cleanly(
    decode: Any, data: Any, errors: tuple[type[Exception], ...] = (msgspec.DecodeError,)
) -> None:
    """Decode `data`; success and a clean decode error (ValidationError included) are fine."""
    with contextlib.suppress(*errors):
        decode(data)


def test_every_contract_module_is_found() -> None:
    # Given the contract modules, then each game's command and event unions are among them
    names = set(CONTRACTS)
    assert {"contracts.games.fjords.FjordsCommand", "contracts.games.looot.LoootEvent"} <= names
    assert "contracts.api.SubmitCommand" in names and "contracts.stream.MetaEvent" in names


@PROPERTY_SETTINGS
@given(name=st.sampled_from(sorted(CONTRACTS)), data=st.binary(max_size=200))
def test_random_bytes_give_a_decode_error(name: str, data: bytes) -> None:
    contract = CONTRACTS[name]
    decode_cleanly(msgspec.json.Decoder(contract).decode, data)
    decode_cleanly(msgspec.msgpack.Decoder(contract).decode, data, MSGPACK_DECODE_ERRORS)


@settings(PROPERTY_SETTINGS, max_examples=JSON_EXAMPLES)
@given(name=st.sampled_from(sorted(CONTRACTS)), data=st.data())
def test_random_json_gives_a_decode_error(name: str, data: st.DataObject) -> None:
    contract = CONTRACTS[name]
    value = data.draw(random_json_for(name))
    decode_cleanly(msgspec.json.Decoder(contract).decode, msgspec.json.encode(value))
    decode_cleanly(
        msgspec.msgpack.Decoder(contract).decode,
        msgspec.msgpack.encode(value),
        MSGPACK_DECODE_ERRORS,
    )
    decode_cleanly(lambda v: msgspec.convert(v, contract), value)
    decode_cleanly(lambda v: msgspec.convert(v, contract, strict=False), value)


@pytest.mark.parametrize("name", sorted(CONTRACTS))
def test_each_contract_still_decodes_what_it_encodes(name: str) -> None:
    # Given a message of each Struct with only defaults, where it has them all
    # Then it round-trips: the property above is not passing because nothing ever decodes
    for member in members(CONTRACTS[name]):
        if any(f.required for f in msgspec.structs.fields(member)):
            continue
        message = member()
        assert msgspec.json.decode(msgspec.json.encode(message), type=member) == message
