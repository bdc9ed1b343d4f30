"""The figures the reliability tests measure: printed (pytest -s) and, when the environment
variable SKALD_RELIABILITY_FIGURES names a file, merged into that JSON file, which
docs/reliability.md quotes."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

FIGURES_ENV = "SKALD_RELIABILITY_FIGURES"


def record_figures(test: str, **figures: Any) -> None:
    """Print a test's figures, and add them to the figures file when one is named."""
    print(f"\n[reliability] {test}: " + ", ".join(f"{k}={v}" for k, v in figures.items()))
    target = os.environ.get(FIGURES_ENV)
    if not target:
        return
    path = Path(target)
    recorded = json.loads(path.read_text()) if path.exists() else {}
    recorded[test] = figures
    path.write_text(json.dumps(recorded, indent=2, sort_keys=True) + "\n")
