"""The architecture rules, checked on the source tree.

The import-linter contracts in pyproject.toml ([tool.importlinter], run by `make lint`) hold the
rules: the layers (service and workers over domain over contracts), no other dependency and no
clock, randomness, logging or I/O in domain, and a game's package imported only by the games.
Checked here: that a forbidden import does break them (on a copy of the tree), and the one rule
import-linter cannot express, an allowlist: contracts imports msgspec and the standard library
only, domain contracts and the standard library only, whatever dependency is added later.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
STDLIB = set(sys.stdlib_module_names)
PACKAGES = ("contracts", "domain", "service", "workers")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def imported_roots(path: Path) -> set[str]:
    """The top-level names of every absolute import in a module."""
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
def test_domain_imports_only_contracts_and_stdlib(path: Path) -> None:
    foreign = {m for m in imported_roots(path) if m not in STDLIB | {"contracts", "domain"}}
    assert not foreign, f"{path.relative_to(ROOT)} imports {sorted(foreign)}"


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    """Run import-linter with the project's contracts on the packages under `tree`."""
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": str(LINT_IMPORTS.parent)},
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture
def tree_copy(tmp_path: Path) -> Path:
    """The four packages and pyproject.toml, copied: a place to add a forbidden import."""
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


BAD_IMPORTS = [
    # (module to edit, the import added, the contract it breaks)
    (
        "service/facade/skald.py",
        "from domain.games.looot.state import LoootState",
        "imported only by",
    ),
    ("workers/jobs.py", "import contracts.games.fjords", "imported only by"),
    ("domain/engine.py", "from service.shared.settings import Settings", "Layers"),
    ("contracts/base.py", "from domain.errors import IllegalCommand", "Layers"),
    ("contracts/outcome.py", "import structlog", "msgspec and the standard library"),
    ("domain/chance.py", "import random", "pure standard library"),
    ("domain/table/state.py", "from service.core.codec import GameCodec", "pure standard library"),
    (
        "service/history/fairness.py",
        "from service.core.pipeline.session import GameSession",
        "stand on the table engine",
    ),
    (
        "service/core/notifying/derive.py",
        "import service.core.pipeline.apply",
        "on the table engine",
    ),
    ("service/core/pipeline/sweep.py", "import redis", "only through the core's ports"),
    (
        "service/facade/metas.py",
        "from service.adapters.store.players import Players",
        "only through the core's ports",
    ),
    (
        "service/history/verify.py",
        "from service.adapters.store.side import Seats",
        "only through the core's ports",
    ),
    (
        "service/adapters/store/side.py",
        "from service.history.loading import read_game",
        "they import no history",
    ),
]


def test_the_tree_keeps_every_import_contract(tree_copy: Path) -> None:
    result = lint_imports(tree_copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(("module", "line", "contract"), BAD_IMPORTS, ids=lambda v: str(v))
def test_a_forbidden_import_breaks_its_contract(
    tree_copy: Path, module: str, line: str, contract: str
) -> None:
    # Given the tree with one forbidden import added
    with (tree_copy / module).open("a") as source:
        source.write(f"\n{line}  # noqa\n")
    # When import-linter checks it
    result = lint_imports(tree_copy)
    # Then it fails, naming the broken contract and the module
    assert result.returncode != 0
    broken = result.stdout.split("Broken contracts", 1)[-1]
    assert contract in broken and module.removesuffix(".py").replace("/", ".") in broken
