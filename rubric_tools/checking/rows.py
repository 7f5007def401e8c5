"""One row of `rubric check`: the result object between checking and reporting."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: The pseudo-matter `rubric check --coverage` holds its overall coverage row in (root ".").
OVERALL = "all matters"


@dataclass(frozen=True)
class CheckRow:
    kind: str  # lint | trajectory | probes | attack
    name: str
    passed: bool
    expected: str = ""
    got: str = ""
    detail: str = ""
    file: Path | None = None
    line: int | None = None
    warning: bool = False  # passed, but something deserves a look (shown as "warn")
