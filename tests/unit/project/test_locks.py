"""The locks (`requirements.lock`, `deploy/requirements.lock`) agree with pyproject.toml, and
this environment is exactly the lock: a test fails when they drift (run `make lock`)."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[3]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PIN = re.compile(
    r"^(?P<name>[A-Za-z0-9._-]+)==(?P<version>[^\s;\\]+)\s*(?:;\s*(?P<marker>[^\\]+?))?\s*\\?$"
)


@dataclass(frozen=True)
class Pin:
    name: str
    version: Version
    marker: Marker | None
    hashes: int

    def applies(self, extra: str = "") -> bool:
        return self.marker is None or self.marker.evaluate({"extra": extra})


def read_lock(path: Path) -> list[Pin]:
    """Every `name==version [; marker]` of a lock, with the count of its `--hash` lines."""
    pins: list[Pin] = []
    lines = path.read_text().splitlines()
    for number, line in enumerate(lines):
        match = PIN.match(line)
        if not match:
            continue
        hashes = 0
        for following in lines[number + 1 :]:
            if not following.strip().startswith("--hash=sha256:"):
                break
            hashes += 1
        marker = match["marker"]
        pins.append(
            Pin(
                canonicalize_name(match["name"]),
                Version(match["version"]),
                Marker(marker) if marker else None,
                hashes,
            )
        )
    return pins


DEV_LOCK = read_lock(ROOT / "requirements.lock")
RUNTIME_LOCK = read_lock(ROOT / "deploy/requirements.lock")


def requirements(*extras: str) -> list[Requirement]:
    """pyproject.toml's runtime requirements and those of the named extras."""
    texts = list(PYPROJECT["project"]["dependencies"])
    for extra in extras:
        texts += PYPROJECT["project"]["optional-dependencies"][extra]
    return [Requirement(text) for text in texts]


def unmet(lock: list[Pin], wanted: list[Requirement]) -> list[str]:
    """The requirements no pin of the lock satisfies, for this interpreter."""
    missing = []
    for requirement in wanted:
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue
        name = canonicalize_name(requirement.name)
        versions = [pin.version for pin in lock if pin.name == name and pin.applies()]
        if not any(requirement.specifier.contains(v, prereleases=True) for v in versions):
            missing.append(f"{requirement} (locked: {[str(v) for v in versions] or 'none'})")
    return missing


def test_the_lock_satisfies_every_requirement_of_every_extra() -> None:
    extras = list(PYPROJECT["project"]["optional-dependencies"])
    assert unmet(DEV_LOCK, requirements(*extras)) == []


def test_the_runtime_lock_satisfies_the_runtime_and_the_build_back_end() -> None:
    build = [Requirement(text) for text in PYPROJECT["build-system"]["requires"]]
    assert unmet(RUNTIME_LOCK, requirements("build") + build) == []


def test_the_runtime_lock_pins_what_the_lock_pins() -> None:
    dev = {(pin.name, pin.marker and str(pin.marker)): pin.version for pin in DEV_LOCK}
    differing = [
        f"{pin.name} {pin.version} (lock: {dev.get((pin.name, pin.marker and str(pin.marker)))})"
        for pin in RUNTIME_LOCK
        if dev.get((pin.name, pin.marker and str(pin.marker))) != pin.version
    ]
    assert differing == []


@pytest.mark.parametrize("lock", ["requirements.lock", "deploy/requirements.lock"])
def test_every_pin_carries_its_hashes(lock: str) -> None:
    pins = read_lock(ROOT / lock)
    assert len(pins) > 10
    assert [pin.name for pin in pins if pin.hashes == 0] == []


def test_this_environment_is_exactly_the_lock() -> None:
    """Each locked distribution is installed at its locked version, and each installed one's
    own requirements are locked too (a lock missing a transitive dependency fails here)."""
    locked = {pin.name: pin.version for pin in DEV_LOCK if pin.applies()}
    wrong = {
        name: (str(version), _installed(name))
        for name, version in locked.items()
        if _installed(name) != str(version)
    }
    assert wrong == {}
    unlocked = set()
    for name in locked:
        for text in metadata.requires(name) or []:
            requirement = Requirement(text)
            applies = requirement.marker is None or requirement.marker.evaluate({"extra": ""})
            if applies and canonicalize_name(requirement.name) not in locked:
                unlocked.add(f"{name} needs {requirement}")
    assert unlocked == set()


def _installed(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None
