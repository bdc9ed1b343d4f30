"""The dependency rules of DESIGN.md, checked on the source tree.

- contracts/ imports msgspec and the standard library only;
- domain/ imports contracts/ and the standard library only (no clock, randomness, logging, I/O);
- nothing in service/ or workers/ names a game: games are reached through the registry.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STDLIB = set(sys.stdlib_module_names)
# Standard-library modules that would give the rules a clock, randomness, logging or I/O.
IMPURE_STDLIB = {
    "time",
    "datetime",
    "random",
    "secrets",
    "logging",
    "os",
    "io",
    "socket",
    "threading",
    "asyncio",
    "subprocess",
    "shutil",
    "tempfile",
    "uuid",
    "urllib",
    "http",
    "sqlite3",
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def python_files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", python_files("contracts"), ids=str)
def test_contracts_import_only_msgspec_and_stdlib(path: Path) -> None:
    bad = {m for m in imported_roots(path) if m not in STDLIB | {"msgspec", "contracts"}}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize("path", python_files("domain"), ids=str)
def test_domain_imports_only_contracts_and_pure_stdlib(path: Path) -> None:
    roots = imported_roots(path)
    foreign = {m for m in roots if m not in STDLIB | {"contracts", "domain"}}
    impure = roots & IMPURE_STDLIB
    assert not foreign, f"{path.relative_to(ROOT)} imports {sorted(foreign)}"
    assert not impure, f"{path.relative_to(ROOT)} imports impure {sorted(impure)}"


def game_names() -> list[str]:
    games = ROOT / "domain" / "games"
    return sorted(p.name for p in games.iterdir() if (p / "__init__.py").exists())


@pytest.mark.parametrize("folder", ["service", "workers"])
def test_service_and_workers_never_name_a_game(folder: str) -> None:
    names = game_names()
    offenders = [
        f"{path.relative_to(ROOT)} names {name!r}"
        for path in python_files(folder)
        for name in names
        if name in path.read_text().lower()
    ]
    assert not offenders, offenders
