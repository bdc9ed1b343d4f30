"""Every game's contracts use class names no other game uses (tags, the wire names, may repeat).

One name, one Struct, across `contracts/games/`: generated client types and error messages then
never mix two games' messages up.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections import defaultdict

import msgspec

import contracts.games


def test_no_two_game_contract_modules_define_a_struct_of_the_same_name() -> None:
    # Given every module under contracts/games
    modules = [
        importlib.import_module(f"{contracts.games.__name__}.{info.name}")
        for info in pkgutil.iter_modules(contracts.games.__path__)
    ]
    assert len(modules) >= 2
    # When the Structs each defines are listed by name
    defined_in: dict[str, list[str]] = defaultdict(list)
    for module in modules:
        for name, value in vars(module).items():
            is_struct = inspect.isclass(value) and issubclass(value, msgspec.Struct)
            if is_struct and value.__module__ == module.__name__:
                defined_in[name].append(module.__name__)
    # Then each name belongs to one module
    shared = {name: where for name, where in defined_in.items() if len(where) > 1}
    assert not shared, shared
