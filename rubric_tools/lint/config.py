"""Lint configuration: what to run, how severe, and what fails the run."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubric_tools.diagnostics import Severity


@dataclass(frozen=True)
class LintConfig:
    """Settings of `[tool.rubric]` in pyproject.toml or of rubric.toml.

    `select`/`ignore` hold rule codes, code prefixes (`G`, `G0`) or rule names.
    """

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: dict[str, Severity] = field(default_factory=dict)
    fail_level: Severity = Severity.ERROR
    canary: str | None = None
    matter_dirs: tuple[str, ...] = ()
    source: Path | None = None  # the file the settings came from
    # `[tool.rubric.attack]`: settings of `rubric attack`, kept as written for that command.
    attack: dict[str, Any] = field(default_factory=dict)
    # `[tool.rubric.audit]`: settings of `rubric audit`, kept as written for that command.
    audit: dict[str, Any] = field(default_factory=dict)
    # `[tool.rubric.check]` strict = true: a trajectory nothing checks fails `rubric check`.
    check_strict: bool = False
    # `[tool.rubric.coverage]`: settings of `rubric coverage`, validated by rubric_tools.coverage.settings.
    coverage: dict[str, Any] = field(default_factory=dict)
    # Fixes, suppressions and baselines (issue 11).
    baseline: str | None = None  # `baseline = "…"`: a baseline file, relative to `source`'s folder
    prove_fixes: bool = True  # replay the matter's trajectories to prove safe fixes safe
